// Darshan logs' job records (darshan_log.h; docs/formats/darshan.md). The layout is darshan-log-format.h's
// (Darshan 3.x, Argonne); what is read and how the run time is formed follow darshan-util's
// darshan-logutils.c and darshan-parser.c, so that a log reads here as `darshan-parser` prints it.
#include "profiles/darshan_log.h"

#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <regex>

#include "profiles/profile_readers.h"
#include "reader/experiment_factors.h"
#include "textio/compressed_file.h"
#include "textio/content_digest.h"
#include "textio/log_numbers.h"
#include "textio/streamed_file.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::int64_t kDarshanMagic = 6567223;  // DARSHAN_MAGIC_NR
constexpr std::size_t kJobRecordBytes = 4096;    // DARSHAN_JOB_RECORD_SIZE: the job region unpacked
constexpr std::size_t kMetadataBytes = 1024;     // DARSHAN_JOB_METADATA_LEN
constexpr std::string_view kParserFirstLine = "# darshan log version:";

// Where the fields of a header are, by log format version: 3.41 bumped the modules from 16 to 64 and the
// partial flag from 32 to 64 bits (struct darshan_header; darshan-logutils.c keeps the 3.00 layout for the rest).
struct HeaderLayout {
  std::size_t partial_flag_at, partial_flag_bytes, name_map_at, header_bytes, job_fields;
};
constexpr HeaderLayout kHeader341 = {24, 8, 32, 8 + 8 + 8 + 8 + 16 + 64 * 16 + 64 * 4, 7};
constexpr HeaderLayout kHeader300 = {20, 4, 24, 8 + 8 + 4 + 4 + 16 + 16 * 16 + 16 * 4, 5};

// The log format versions darshan-util 3.4 and 3.5 read (darshan_log_get_header).
bool ReadableVersion(int major, int minor) {
  return major == 3 && (minor == 0 || minor == 10 || minor == 20 || minor == 21 || minor == 41);
}

// "3.41" of an 8-byte, NUL-padded version string; false when it is not "<digit>.<digits>".
bool ParseVersion(std::string_view field, std::string* text, int* major, int* minor) {
  const std::size_t end = field.find('\0');
  const std::string_view version = field.substr(0, end);
  if (version.size() < 3 || version.size() > 7 || version[1] != '.') return false;
  const auto whole = ParseInteger(version.substr(0, 1));
  const auto part = ParseInteger(version.substr(2));
  if (!whole || !part || !AllDigits(version.substr(2))) return false;
  *text = std::string(version);
  *major = static_cast<int>(*whole);
  *minor = static_cast<int>(*part);
  return true;
}

std::uint64_t Swapped(std::uint64_t value, std::size_t bytes) {
  std::uint64_t out = 0;
  for (std::size_t b = 0; b < bytes; ++b) out = (out << 8) | ((value >> (8 * b)) & 0xff);
  return out;
}

// An unsigned number of `bytes` (4 or 8) at `at`, little-endian, swapped when the log is of the other order.
std::uint64_t Field(std::string_view bytes, std::size_t at, std::size_t size, bool swap) {
  std::uint64_t value = 0;
  for (std::size_t b = 0; b < size; ++b)
    value |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + b])) << (8 * b);
  return swap ? Swapped(value, size) : value;
}

std::int64_t SignedField(std::string_view bytes, std::size_t at, bool swap) {
  const std::uint64_t value = Field(bytes, at, 8, swap);
  std::int64_t out;
  std::memcpy(&out, &value, sizeof out);
  return out;
}

// The first `max_bytes` of a zlib stream (RFC 1950: darshan-logutils' deflateInit/inflateInit).
std::string Inflate(std::string_view compressed, std::size_t max_bytes, const std::string& path) {
  z_stream stream{};
  if (inflateInit(&stream) != Z_OK) throw InputError(path, 0, "cannot start zlib for the Darshan job region");
  std::string out(max_bytes, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(std::min<std::size_t>(compressed.size(), std::numeric_limits<uInt>::max()));
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(max_bytes);
  const int status = inflate(&stream, Z_SYNC_FLUSH);
  out.resize(max_bytes - stream.avail_out);
  const std::string why = stream.msg ? stream.msg : "corrupt data";  // read before inflateEnd frees the state
  inflateEnd(&stream);
  if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR)
    throw InputError(path, 0, "the Darshan job region does not unpack (zlib: " + why + ")");
  return out;
}

// The NUL-terminated text at the start of `field`.
std::string_view CString(std::string_view field) { return field.substr(0, field.find('\0')); }

// "lib_ver=3.4.0\nh=romio_no_indep_rw=true" -> (lib_ver, 3.4.0), (h, romio_no_indep_rw=true): split at the first
// '=' of each line; lines without one are skipped (darshan-parser).
void AddMetadataLine(std::string_view line, DarshanJob* job) {
  std::string_view key, value;
  if (!SplitAtFirst(line, '=', &key, &value)) return;
  job->metadata.emplace_back(std::string(Trim(key)), std::string(Trim(value)));
}

// The checks every job record passes, binary or printed.
void CheckJob(const DarshanJob& job, const std::string& path, int line) {
  if (job.nprocs < 1 || job.nprocs > (1 << 24))
    throw InputError(path, line, "Darshan job record with " + std::to_string(job.nprocs) + " processes");
  if (job.end_time_s < job.start_time_s)
    throw InputError(path, line,
                     "Darshan job record ends before it starts (end_time " + std::to_string(job.end_time_s) +
                         " < start_time " + std::to_string(job.start_time_s) + ")");
  if (!(job.run_time_s > 0) || !std::isfinite(job.run_time_s))
    throw InputError(path, line, "Darshan job record without a run time (" + NumberText(job.run_time_s) + " s)");
}

// Darshan's own name of its logs, "<user>_<exe>_id<jobid>[-<step>]_<month>-<day>-<seconds>-<hash>[_<n>].darshan":
// none of its words is the run's configuration. The program's base name, or empty when the name is not Darshan's.
std::string DarshanLogProgram(const std::string& path) {
  static const std::regex kName(R"([^_]+_(.+)_id\d+(-\d+)?_\d+-\d+-\d+-\d+(_\d+)?\.darshan(\.(gz|bz2|xz|zst))?)");
  std::smatch match;
  const std::string name = BaseName(path);
  return std::regex_match(name, match, kName) ? match[1].str() : std::string();
}

// The log's file name without ".darshan" and a compression suffix.
std::string StemOfLog(const std::string& path) {
  std::string stem = BaseName(WithoutCompressionSuffix(path));
  if (EndsWith(ToLower(stem), ".darshan")) stem.resize(stem.size() - 8);
  return stem;
}

}  // namespace

bool LooksLikeDarshanLog(std::string_view head) {
  if (head.size() < 16) return false;
  std::string version;
  int major = 0, minor = 0;
  if (!ParseVersion(head.substr(0, 8), &version, &major, &minor) || (major != 2 && major != 3)) return false;
  const std::uint64_t magic = Field(head, 8, 8, false);
  return magic == static_cast<std::uint64_t>(kDarshanMagic) ||
         Swapped(magic, 8) == static_cast<std::uint64_t>(kDarshanMagic);
}

bool LooksLikeDarshanParserOutput(std::string_view text) {
  // darshan-parser may first warn of the log's version ("# WARNING: Darshan logs generated by runtime version
  // 3.2.0 ...", darshan_log_print_version_warnings): comment lines before the summary's first.
  const std::string_view head = text.substr(0, 2048);
  std::size_t at = 0;
  while (at < head.size() && head[at] == '#') {
    if (StartsWith(head.substr(at), kParserFirstLine)) return true;
    const std::size_t end = head.find('\n', at);
    if (end == std::string_view::npos) return false;
    at = end + 1;
  }
  return false;
}

DarshanJob ReadDarshanLogJob(std::string_view bytes, const std::string& path) {
  DarshanJob job;
  int major = 0, minor = 0;
  if (bytes.size() < 16 || !ParseVersion(bytes.substr(0, 8), &job.log_version, &major, &minor))
    throw InputError(path, 0, "not a Darshan log (no version string)");
  if (!ReadableVersion(major, minor))
    throw InputError(path, 0,
                     "Darshan log format version " + job.log_version +
                         " is not read (darshan-util 3.4 reads 3.00, 3.10, 3.20, 3.21 and 3.41)");
  bool swap = false;
  if (Field(bytes, 8, 8, false) != static_cast<std::uint64_t>(kDarshanMagic)) {
    if (Field(bytes, 8, 8, true) != static_cast<std::uint64_t>(kDarshanMagic))
      throw InputError(path, 0, "bad magic number in the Darshan log header");
    swap = true;  // written on a machine of the other byte order (a Blue Gene)
  }
  const HeaderLayout& layout = major == 3 && minor >= 41 ? kHeader341 : kHeader300;
  if (bytes.size() < layout.header_bytes)
    throw InputError(path, 0,
                     "Darshan log cut short in its header (" + std::to_string(bytes.size()) + " of " +
                         std::to_string(layout.header_bytes) + " bytes)");
  const unsigned char compression = static_cast<unsigned char>(bytes[16]);
  job.partial = Field(bytes, layout.partial_flag_at, layout.partial_flag_bytes, swap) != 0;
  // The job region runs from the header's end to the name records (or, without them, to the first module's).
  const std::uint64_t name_map_offset = Field(bytes, layout.name_map_at, 8, swap);
  std::string_view region = bytes.substr(layout.header_bytes);
  if (name_map_offset > layout.header_bytes && name_map_offset - layout.header_bytes < region.size())
    region = region.substr(0, name_map_offset - layout.header_bytes);
  std::string unpacked;
  switch (compression) {
    case 0:
      job.compression = "ZLIB";
      unpacked = Inflate(region, kJobRecordBytes, path);
      break;
    case 1:
      job.compression = "BZIP2";
      unpacked = UnpackedHead(region, kJobRecordBytes);
      break;
    case 2:
      job.compression = "NONE";
      unpacked = std::string(region.substr(0, kJobRecordBytes));
      break;
    default:
      throw InputError(path, 0, "Darshan log of unknown compression " + std::to_string(compression));
  }
  const std::size_t fields_bytes = 8 * layout.job_fields;
  if (unpacked.size() <= fields_bytes + kMetadataBytes)
    throw InputError(path, 0,
                     "the Darshan job region is cut short or corrupt (" + std::to_string(unpacked.size()) +
                         " bytes unpacked, the job record needs " + std::to_string(fields_bytes + kMetadataBytes + 1) +
                         ")");
  // struct darshan_job: uid, start, [start ns], end, [end ns], nprocs, jobid, metadata; the command line after it.
  const std::string_view record(unpacked);
  std::size_t at = 0;
  auto next = [&] {
    const std::int64_t value = SignedField(record, at, swap);
    at += 8;
    return value;
  };
  const bool nanoseconds = layout.job_fields == 7;
  job.uid = next();
  job.start_time_s = next();
  const std::int64_t start_ns = nanoseconds ? next() : 0;
  job.end_time_s = next();
  const std::int64_t end_ns = nanoseconds ? next() : 0;
  job.nprocs = next();
  job.jobid = next();
  for (std::string_view line : SplitLines(CString(record.substr(at, kMetadataBytes)))) AddMetadataLine(line, &job);
  const std::string_view trailing = record.substr(at + kMetadataBytes);
  // darshan_log_get_exe: the command line is what comes before the first line break; without one (a command line
  // as long as the record, cut, its mount table dropped) darshan-parser prints none.
  const std::size_t line_break = trailing.find('\n');
  if (line_break != std::string_view::npos) job.exe = std::string(Trim(CString(trailing.substr(0, line_break))));
  // darshan_log_get_job_runtime.
  job.whole_seconds = !nanoseconds;
  job.run_time_s = nanoseconds ? (static_cast<double>(job.end_time_s) + static_cast<double>(end_ns) / 1e9) -
                                     (static_cast<double>(job.start_time_s) + static_cast<double>(start_ns) / 1e9)
                               : static_cast<double>(job.end_time_s) - static_cast<double>(job.start_time_s) + 1.0;
  CheckJob(job, path, 0);
  return job;
}

DarshanJob ReadDarshanParserJob(std::string_view text, const std::string& path) {
  DarshanJob job;
  int version_line = 0, nprocs_line = 0, run_time_line = 0, start_line = 0, end_line = 0;
  const std::vector<std::string_view> lines = SplitLines(text.substr(0, std::min<std::size_t>(text.size(), 1 << 20)));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i) + 1;
    const std::string_view t = Trim(lines[i]);
    if (t.empty()) {  // the job summary ends at the first blank line ("# log file regions" follows)
      if (version_line > 0) break;
      continue;
    }
    if (!StartsWith(t, "#")) break;
    std::string_view key, value;
    if (!SplitAtFirstColon(Trim(t.substr(1)), &key, &value)) continue;
    key = Trim(key);
    value = Trim(value);
    auto whole = [&](const char* what) { return WholeNumber(value, path, n, what, -(1LL << 62), 1LL << 62); };
    if (key == "darshan log version") {
      job.log_version = std::string(value);
      version_line = n;
      std::string version;
      int major = 0, minor = 0;
      job.whole_seconds = ParseVersion(value, &version, &major, &minor) && major == 3 && minor < 41;
    } else if (key == "compression method") {
      job.compression = std::string(value);
    } else if (key == "exe") {
      job.exe = std::string(value);
    } else if (key == "uid") {
      job.uid = whole("darshan-parser 'uid'");
    } else if (key == "jobid") {
      job.jobid = whole("darshan-parser 'jobid'");
    } else if (key == "start_time") {
      job.start_time_s = whole("darshan-parser 'start_time'");
      start_line = n;
    } else if (key == "end_time") {
      job.end_time_s = whole("darshan-parser 'end_time'");
      end_line = n;
    } else if (key == "nprocs") {
      job.nprocs = WholeNumber(value, path, n, "darshan-parser 'nprocs'", 1, 1 << 24);
      nprocs_line = n;
    } else if (key == "run time") {
      job.run_time_s = NonNegativeNumber(value, path, n, "darshan-parser 'run time'");
      run_time_line = n;
    } else if (key == "metadata") {
      std::string_view name, setting;
      if (SplitAtFirst(value, '=', &name, &setting))
        job.metadata.emplace_back(std::string(Trim(name)), std::string(Trim(setting)));
    }
  }
  if (version_line == 0) throw InputError(path, 1, "not darshan-parser's output (no '# darshan log version:' line)");
  if (nprocs_line == 0) throw InputError(path, 1, "darshan-parser's job summary without its '# nprocs:' line");
  if (run_time_line == 0) throw InputError(path, 1, "darshan-parser's job summary without its '# run time:' line");
  job.partial = text.find("# *WARNING*: The ") != std::string_view::npos &&
                text.find(" module contains incomplete data!") != std::string_view::npos;
  job.line = nprocs_line;
  CheckJob(job, path, start_line && end_line && job.end_time_s < job.start_time_s ? end_line : run_time_line);
  return job;
}

RunStats DarshanJobToRunStats(const DarshanJob& job, const std::string& path) {
  RunStats run;
  run.sources.push_back(job.line > 0 ? path + ":" + std::to_string(job.line) : path);
  const std::string lib_version = [&] {
    for (const auto& [key, value] : job.metadata)
      if (key == "lib_ver") return value;
    return std::string();
  }();
  run.tool_version = "Darshan " + (lib_version.empty() ? "log format " + job.log_version : lib_version);
  run.procs = static_cast<int>(job.nprocs);
  run.derivations["procs"] = "Darshan job record 'nprocs'";
  run.wall_time_s = job.run_time_s;
  run.derivations["wall_time_s"] =
      job.whole_seconds
          ? "Darshan job record: end - start time + 1 s (whole seconds before log format 3.41), as darshan-parser"
          : "Darshan job record: end - start time (MPI_Init to MPI_Finalize), as darshan-parser";
  const std::vector<std::string_view> words = SplitWhitespace(job.exe);
  if (!words.empty()) {
    run.app = std::filesystem::path(std::string(words[0])).filename().string();
    run.derivations["app"] = "Darshan job record: the command line's first word";
    SetCommandArguments(job.exe, &run);
  } else {
    // No command line (darshan-parser prints "# exe: "): the program Darshan named the log after, else the file.
    const std::string name = DarshanLogProgram(path);
    run.app = !name.empty() ? name : StemOfLog(path);
    run.derivations["app"] = !name.empty() ? "the Darshan log's name (<user>_<program>_id<job>...): the job "
                                             "record holds no command line"
                                           : "the log's file name: the Darshan job record holds no command line";
  }
  if (run.app.empty()) throw InputError(path, job.line, "Darshan job record without a command line (exe)");
  // One job whether its log or darshan-parser's print of it is read (both in a folder: one measurement).
  run.origin = std::string(kMeasurementOrigin) + "darshan:" + std::to_string(job.uid) + ":" +
               std::to_string(job.jobid) + ":" + std::to_string(job.start_time_s) + ":" +
               std::to_string(job.end_time_s) + ":" + std::to_string(job.nprocs) + ":" + job.exe;
  run.details["jobid"] = std::to_string(job.jobid);
  run.details["start_time"] = std::to_string(job.start_time_s);
  run.details["darshan.log_version"] = job.log_version;
  for (const auto& [key, value] : job.metadata) run.details["darshan." + DetailKey(key)] = value;
  if (job.partial) run.details["darshan.partial"] = "some I/O module ran out of memory for its records";
  return run;
}

bool SniffDarshanLog(const std::string& path, std::string_view text) {
  return LooksLikeDarshanLog(text) || LooksLikeDarshanParserOutput(text) ||
         EndsWith(ToLower(WithoutCompressionSuffix(path)), ".darshan");
}

ReaderOutput ReadDarshanLog(const ReaderInput& input) {
  const DarshanJob job = LooksLikeDarshanParserOutput(input.text) ? ReadDarshanParserJob(input.text, input.path)
                                                                  : ReadDarshanLogJob(input.text, input.path);
  RunStats run = DarshanJobToRunStats(job, input.path);
  ReaderOutput output;
  if (!DarshanLogProgram(input.path).empty()) {
    output.runs.push_back(std::move(run));  // Darshan's own name: a user, the program, a job id, a date
  } else {
    output = OneRunOutput(std::move(run), input.name);
  }
  // Ingest saw only the head (the header and job region are in it); the log's identity is all of its bytes.
  if (input.streamed) {
    StreamedFile file(input.path, input.max_file_bytes);
    ContentDigester digester;
    std::string_view piece;
    while (file.Next(&piece)) digester.Add(piece);
    output.content_digest = digester.Digest();
  }
  return output;
}

}  // namespace qnm
