#pragma once
// JUBE result tables (docs/formats/jube-result.md). JUBE, the Jülich Benchmarking Environment (Debian's `jube`
// package), runs a benchmark over a parameter space (nodes, tasks, threads: its platform's `nodes`,
// `taskspernode`, `threadspertask`, `tasks`) and writes each result table of a run into
// `<outpath>/<run id>/result/<table name>.dat`, in the table's style: `csv`, `aligned` (CSV with padded
// columns) or `pretty` (its name and a colon, then a pipe table); `jube result` prints the same tables. A table is
// a statistics table (statistics_table.h: `tasks` read as procs, `runtime_avg`, JUBE's statistic of a pattern,
// as the run time); its series is named after the benchmark (the `name` of `<benchmark>` in the run's
// `configuration.xml`, beside `result/`) and, when not `result`, the table.
#include <string>
#include <string_view>

#include "reader/reader.h"

namespace qnm {

/// True when `text` starts as JUBE's pretty table does: a line "<name>:" then a pipe table's header and rule.
bool LooksLikeJubePrettyTable(std::string_view text);

/// True for a file in JUBE's result folder layout: `.../result/<name>.dat`.
bool IsJubeResultFile(const std::string& path);

/// The benchmark's name a JUBE run's `configuration.xml` gives (`<jube><benchmark name="...">`), read from
/// the run folder above a result file's `result/` folder; empty when there is none or it does not say.
std::string JubeBenchmarkName(const std::string& result_path);

/// Reads a JUBE result table: a pretty style's pipe tables (each under its "<name>:" line), else the file as
/// a CSV table (csv and aligned styles). Throws InputError(path, line, ...) as the statistics tables do.
ReaderOutput ReadJubeResult(const ReaderInput& input);

}  // namespace qnm
