#pragma once
// Any program's output read by the user's patterns (`--pattern FIELD=REGEX`,
// reader/output_patterns.h): the run a file no reader of ours takes describes, when its lines say
// the run time. Ingest offers it the files every reader refused as not theirs
// (ingest/ingest.cpp), so a pattern never changes how a known format is read.
//
// A file is one run, or several when its configuration lines are printed again before another
// run-time line (a job that ran the program several times, appending). Each pattern is matched
// line by line; the last matching line's group is the value, or a measured value's reduction of its
// run's lines (first, sum, mean, min, max). The run time is required; the process count comes from
// its pattern or else from the file name ("np16", "64ranks", reader/file_name_info.h); threads
// default to 1. The application is the `app` pattern's value, else the first word of the file's
// name, else of its folder's. MPI time, application time, messages and bytes, when patterns give
// them, are the queueing model's inputs (docs/formats/output-patterns.md).
#include "reader/reader.h"

namespace qnm {

/// The run of `input` by `input.selection->output_patterns`; no run (an empty output) when none is
/// given or no line matches the run time's pattern. Throws InputError naming the file (and line)
/// when a matched value is no number, or the run time is found but no process count.
ReaderOutput ReadByOutputPatterns(const ReaderInput& input);

// ApplicationFromPath (reader/file_name_info.h) names a pattern-read run when no `app` pattern does.

}  // namespace qnm
