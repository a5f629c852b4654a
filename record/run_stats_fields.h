#pragma once
// The record's external names in one table: each row is one statistics-table
// column, with the RunStats member it fills, its unit and what it means. The
// table reader (tables/statistics_table.cpp), the JSON and CSV writers
// (record/run_stats_json.cpp) and docs/statistics-table.md (checked by
// tests/record_fields_test.cpp) all follow it.
#include <string>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

struct RunStatsField {
  enum class Kind {
    kText,         // a string member
    kCount,        // a positive integer member
    kCountOrNone,  // a positive integer member, 0 = unknown (written empty / null)
    kSeconds,      // a non-negative double member (time, count or rate; NaN = unknown)
    kSources,      // `sources`: one more source (read) / all joined by ';' (CSV)
    kRunLabel,     // details["run"]
    kDetail,       // details[detail]: a label kept with the run (the `metric` time_s measures)
  };
  const char* column;       // name in tables, CSV and JSON
  const char* member;       // RunStats member, as docs/statistics-table.md names it
  const char* unit;         // "s", "count", "bytes", "Mop/s" or "" for text
  const char* description;  // one line for people
  Kind kind;
  SharedText RunStats::*text = nullptr;
  int RunStats::*count = nullptr;
  double RunStats::*number = nullptr;
  const char* detail = nullptr;  // kDetail: the key in RunStats::details
  bool written = true;  // false for read-only aliases ("benchmark", "system") and "run"
};

/// Every column, in the order the CSV writer writes them (read-only aliases last).
const std::vector<RunStatsField>& RunStatsFields();

/// The row for `column`, or null when there is none.
const RunStatsField* FindRunStatsField(const std::string& column);

/// The value a writer puts in the column for `run`: TotalTimeSeconds() for
/// time_s (a wall time, or the longest rank when none), else the member.
double WrittenNumber(const RunStatsField& field, const RunStats& run);

}  // namespace qnm
