#pragma once
// hyperfine's exports (sharkdp/hyperfine; docs/formats/hyperfine.md): the benchmarking tool times a
// command several times, and a scaling study is one command over a parameter,
//   hyperfine --parameter-scan np 1 16 'mpirun -np {np} ./app in.dat' --export-json runs.json
// `--export-json` keeps every timed run of each command:
//   {"results": [{"command": "mpirun -np 1 ./app in.dat", "mean": 0.68, "stddev": 0.03, "median": 0.70,
//                 "user": 0.37, "system": 0.09, "min": 0.65, "max": 0.70, "times": [0.65, 0.70, 0.70],
//                 "exit_codes": [0, 0, 0], "parameters": {"np": "1"}}, ...]}
// (before hyperfine 1.11 one unnamed "parameter": "1"; before 1.12 no exit codes); `--export-csv` only
// each command's summary, `command,mean,stddev,median,user,system,min,max[,parameter_<name>...]`;
// `--export-markdown`, `--export-orgmode` and `--export-asciidoc` a table of each command's mean,
//   | Command | Mean [ms] | Min [ms] | Max [ms] | Relative |
//   |:---|---:|---:|---:|---:|
//   | `mpirun -np 1 ./app in.dat` | 382.0 ± 3.3 | 379.7 | 384.4 | 1.06 ± 0.02 |
// (Org: `| =cmd=  |  382.0 ± 3.3 |  ...`; AsciiDoc: `[cols="<,>,>,>,>"]`, `|===`, a cell a line).
// Each timed run of the JSON is a run (repetitions of one point); a row of the other exports is one run
// whose time is hyperfine's mean. The time is the whole command's wall-clock time, the launcher's start-up included.
// The processes come from the command's launcher (launch/launch_command.h), else from a parameter
// named for them (np, procs, ranks, ...: the statistics tables' names); the threads, nodes and ranks
// per node likewise; the program and its arguments from the command; other parameters are settings of
// the run (a problem size scanned beside the processes splits the series).
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reader/reader.h"

namespace qnm {

/// One benchmarked command as the export holds it.
struct HyperfineResult {
  int line = 0;  // of its object (JSON) or row (CSV), 1-based
  std::string command;
  std::vector<double> times_s;                                   // every timed run (JSON); the mean alone (CSV)
  std::vector<std::optional<int>> exit_codes;                    // per timed run; empty when the export has none
  double mean_s = 0, user_s = -1, system_s = -1, stddev_s = -1;  // < 0: not given
  std::vector<std::pair<std::string, std::string>> parameters;   // name -> value ("" for the unnamed one)
  bool summary_only = false;                                     // a row of a summary export: times_s holds the mean
  std::string summary_export;                                    // which: "CSV", "Markdown", "Org", "AsciiDoc"
};

/// True when `text` opens as hyperfine's JSON export: an object whose first member is "results", an
/// array whose first object's first member is "command".
bool LooksLikeHyperfineJson(std::string_view text);
/// True when the first line of `text` is hyperfine's CSV header (command,mean,stddev,median,user,...).
bool LooksLikeHyperfineCsv(std::string_view text);

/// True when `text` opens with the table of hyperfine's Markdown, Org or AsciiDoc export (its header
/// Command | Mean [unit] | Min [unit] | Max [unit] | Relative, in hyperfine's own layout of each).
bool LooksLikeHyperfineMarkup(std::string_view text);

/// The results of a JSON export; throws InputError naming `path` and the result's line when a
/// member is missing, of the wrong type, or a time is negative or not finite.
std::vector<HyperfineResult> ParseHyperfineJson(std::string_view text, const std::string& path);
/// The rows of a CSV export; throws InputError naming `path` and the line of a malformed row.
std::vector<HyperfineResult> ParseHyperfineCsv(std::string_view text, const std::string& path);
/// The rows of a Markdown, Org or AsciiDoc export: each command's mean (and its standard deviation, after
/// "±") in the header's unit; the command without its code marks (`cmd`, =cmd=) and with hyperfine's `\|`
/// unescaped. Throws InputError naming `path` and the line of a malformed row.
std::vector<HyperfineResult> ParseHyperfineMarkup(std::string_view text, const std::string& path);

bool SniffHyperfineExport(const std::string& path, std::string_view text);
/// The runs of an export. A summary export beside the JSON export of the same name (`runs.csv` or
/// `runs.md` beside `runs.json`) holds only its means: it gives no runs and a note says the JSON is read. A result
/// whose runs failed (an exit code other than 0) is noted, not read; an export of no run is refused,
/// as is one whose commands name no process count and no parameter does.
ReaderOutput ReadHyperfineExport(const ReaderInput& input);

}  // namespace qnm
