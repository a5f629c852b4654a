#pragma once
// CrayPat reports (docs/formats/craypat-report.md): what HPE/Cray's performance tools print of a
// profiled run, either the "CrayPat-lite Performance Statistics" summary perftools-lite appends to
// the job's standard output when the program exits, or a full report of pat_report (a .rpt text
// file). A report opens with its header ("CrayPat/X:  Version 20.09.0 Revision 430aefe03 ...",
// "Experiment:  lite  lite-samples", "Number of PEs (MPI ranks):   1,024", "Numbers of PEs per Node:
// 128  PEs on each of  8  Nodes", "Numbers of Threads per PE:  1", "System name and speed:
// nid001225  2.250 GHz (nominal)", "AMD Rome  CPU  Family: 23 ..."), then the lite summary's
// "Avg Process Time:  0.47 secs" (perftools 6.2 printed "Process Time:  1366 secs  85.368 secs per
// PE") and numbered tables: "Table 1:  Profile by Function[ Group and Function]" (sampling: Samp%,
// Samp, Imb. Samp, Imb. Samp%; tracing: Time%, Time, Imb. Time, Imb. Time%, Calls; rows of groups
// such as MPI, USER, ETC and, indented by one more '|', their functions; PE=HIDE: values averaged
// over the PEs), "Wall Clock Time, Memory High Water Mark" (the process time of the average PE and,
// PE=[mmm], of the slowest, median and fastest PE), "MPI Message Stats by Caller" (tracing) and
// "Additional details" ("Program invocation:", "Exit Status:  0 for 128 PEs"). Read as printed by
// perftools 6.2.1, 6.4.6, 20.09 and 21.02 to 23.12 (lite summaries and pat_report reports).
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One row of a CrayPat table: "||  38.4% | 1,344,287.7 | 122,437.3 |  8.4% | MPI_ALLREDUCE".
struct CrayPatRow {
  int line = 0;
  int depth = 0;             // the leading '|' characters: 0 the Total row, 1 a group, 2 a function
  std::string label;         // the last column: "Total", "MPI", "MPI_ALLREDUCE", "pe.30"
  std::string group;         // the group a function row belongs to (its own label for a group row)
  std::vector<double> values;  // the other columns, in order; kUnknown for "--"
};

/// A table: its title line, the column names (header lines joined per column) and its rows.
struct CrayPatTable {
  int line = 0;              // of "Table N:  <title>"
  std::string title;         // "Profile by Function Group and Function (top 10 functions shown)"
  std::vector<std::string> columns;  // "Samp%", "Samp", "Imb. Samp", "Imb. Samp%", ..., the label last
  std::vector<CrayPatRow> rows;
  /// The column named `name` (its index in CrayPatRow::values), or -1.
  int Column(const std::string& name) const;
};

/// One report: a lite summary of a job's stdout or a pat_report report.
struct CrayPatReport {
  int line = 0;                 // of its "CrayPat/X:" line, 1-based
  std::string version;          // "20.09.0" of "CrayPat/X:  Version 20.09.0 Revision ..."
  bool lite = false;            // under the "CrayPat-lite Performance Statistics" banner
  std::string experiment;       // "lite  lite/sample_profile" (header) or "samp_cs_time" (details)
  int pes_line = 0;
  int pes = 0;                  // "Number of PEs (MPI ranks):   1,024"
  int pes_per_node = 0;         // "Numbers of PEs per Node:  128  PEs on each of  8  Nodes" or "24"
  int nodes = 0;                // the N of "on each of N Nodes" (plus "M PEs on K Node" parts); 0 = not said
  std::string threads_text;     // "1", "2", or a list "1,114" as printed
  int threads = 0;              // the largest count the threads line names
  int cores_per_socket = 0;     // "Number of Cores per Socket:  64"
  std::string start_time;       // "Execution start time:  Sat Nov  7 12:47:59 2020"
  std::string host;             // "System name and speed:  nid001003  2.250 GHz (nominal)": nid001003
  std::string cpu;              // "AMD Rome       CPU  Family: 23 ...": the text before "Family:"
  std::string accelerator;      // "Accelerator Model: Nvidia P100-PCIE-16GB Memory: ..."
  std::string data_file;        // the line after "Current path to data file:"
  std::string invocation;       // "Program invocation:" (same line in lite summaries, next line in reports)
  std::string original_program; // the line after "Original program:"
  std::string exit_status;      // "0 for 128 PEs"
  int exit_status_line = 0;
  bool failed_exit = false;     // a status other than 0 in "Exit Status:"
  double sampling_interval_us = kUnknown;  // "Sampling interval:  10000 microsecs"
  int process_time_line = 0;    // of "Avg Process Time:" / "Process Time:" (lite)
  double avg_process_time_s = kUnknown;    // the lite summary's average over the PEs
  std::vector<CrayPatTable> tables;        // every table read (profile, wall clock, messages)
  int profile_table = -1;       // index in `tables` of the first "Profile by Function" table
  int wall_table = -1;          // of the "Wall Clock Time" table
  int message_table = -1;       // of the "MPI Message Stats" table
  int table_titles = 0;         // "Table N:" lines seen, read or not
  bool lite_end = false;        // "End of CrayPat-lite output"
};

/// True when `text` holds a CrayPat report: the lite banner, or a "CrayPat/X:" line followed by
/// the report's header ("Experiment:" or "Number of PEs (MPI ranks):"), anywhere in the file (a
/// job's stdout holds the program's own output first).
bool LooksLikeCrayPatReport(std::string_view text);

/// Every report of the file, finished or not; throws InputError naming `path` (and the line) when
/// it holds none or a number or table CrayPat printed is malformed.
std::vector<CrayPatReport> ParseCrayPatReports(std::string_view text, const std::string& path);

/// Why a report cannot be a run (no tables, no process time, a non-zero exit status), with the
/// line that shows it; empty when it can.
std::string CrayPatReportUnfinished(const CrayPatReport& r, int* line);

/// The run-statistics record of a report: app the executable, procs the PEs, threads, nodes, the
/// host and CPU model as the machine; the slowest PE's process time as the run's time (else the
/// average); the MPI group's share of the profile (MPI and MPI_SYNC of a tracing experiment) as the
/// mean MPI time per rank, its functions as call sites. Throws InputError when it has no PE count.
RunStats CrayPatReportToRunStats(const CrayPatReport& r, const std::string& path);

}  // namespace qnm
