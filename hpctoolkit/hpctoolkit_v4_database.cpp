#include "hpctoolkit/hpctoolkit_v4_database.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <utility>

#include "textio/content_digest.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// The common file header (FORMATS.md, "Common file structure"): magic, format, versions, then
// {size, pointer} pairs of the sections.
constexpr std::string_view kMagic = "HPCTOOLKIT";
constexpr std::size_t kSectionTable = 0x10;
constexpr int kMajorVersion = 4;
constexpr std::size_t kMetaSections = 8;     // General, IdNames, Metrics, Context, Strings, Modules, Files, Functions
constexpr std::size_t kProfileSections = 2;  // ProfileInfos, IdTuples
constexpr std::size_t kFooterBytes = 8;      // "_meta.db", "_prof.db"
constexpr std::size_t kMaxName = 1 << 16;    // a C++ function name is long, not this long
// profile.db sections held in memory: 1 M profiles x 48 bytes, and their identifier tuples.
constexpr std::uint64_t kMaxProfileSection = 256ULL << 20;
// One profile's values: 10 bytes per metric value, 12 per context (a large tree, many metrics).
constexpr std::uint64_t kMaxValueBlock = 1ULL << 30;

/// Little-endian fields of a byte range, each bounds-checked against the range.
struct Bytes {
  std::string_view data;
  const std::string& path;
  std::uint64_t base = 0;  // the range's offset in the file (for messages and pointers)

  [[noreturn]] void Fail(const std::string& why) const { throw InputError(path, 0, why); }
  void Need(std::uint64_t offset, std::uint64_t size, const char* what) const {
    if (offset < base || offset - base > data.size() || size > data.size() - (offset - base))
      Fail(std::string(what) + " at byte " + std::to_string(offset) + " lies outside " +
           (base == 0 ? "the file (" + std::to_string(data.size()) + " bytes): damaged or cut short"
                      : "its section (bytes " + std::to_string(base) + ".." + std::to_string(base + data.size()) +
                            "): damaged"));
  }
  std::uint64_t Unsigned(std::uint64_t offset, int bytes, const char* what) const {
    Need(offset, static_cast<std::uint64_t>(bytes), what);
    std::uint64_t value = 0;
    for (int k = bytes - 1; k >= 0; --k) value = (value << 8) | static_cast<unsigned char>(data[offset - base + k]);
    return value;
  }
  std::uint64_t U64(std::uint64_t offset, const char* what) const { return Unsigned(offset, 8, what); }
  std::uint32_t U32(std::uint64_t offset, const char* what) const {
    return static_cast<std::uint32_t>(Unsigned(offset, 4, what));
  }
  std::uint16_t U16(std::uint64_t offset, const char* what) const {
    return static_cast<std::uint16_t>(Unsigned(offset, 2, what));
  }
  std::uint8_t U8(std::uint64_t offset, const char* what) const {
    return static_cast<std::uint8_t>(Unsigned(offset, 1, what));
  }
  double F64(std::uint64_t offset, const char* what) const {
    const std::uint64_t bits = U64(offset, what);
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }
  /// The NUL-terminated string at `offset`.
  std::string Text(std::uint64_t offset, const char* what) const {
    Need(offset, 1, what);
    const std::string_view rest = data.substr(offset - base, kMaxName);
    const std::size_t end = rest.find('\0');
    if (end == std::string_view::npos) Fail(std::string(what) + " at byte " + std::to_string(offset) + " has no end");
    return std::string(rest.substr(0, end));
  }
};

struct Section {
  std::uint64_t size = 0, offset = 0;
};

/// The header of a `format` file ("meta", "prof") of `bytes` (the whole file, or its head with
/// `file_size`): its sections, checked to lie inside the file; the minor version in `minor`.
std::vector<Section> ReadHeader(const Bytes& bytes, std::uint64_t file_size, std::string_view format,
                                std::size_t sections, int* minor) {
  const std::string what = "the " + std::string(format) + " file header";
  bytes.Need(0, kSectionTable + 16 * sections, what.c_str());
  if (bytes.data.substr(0, kMagic.size()) != kMagic || bytes.data.substr(kMagic.size(), 4) != format)
    bytes.Fail("not an HPCToolkit " + std::string(format == "meta" ? "meta.db" : "profile.db") +
               " (it starts with HPCTOOLKIT" + std::string(format) + ")");
  const int major = bytes.U8(0x0e, "the major version");
  if (major != kMajorVersion)
    bytes.Fail("format version " + std::to_string(major) + "." + std::to_string(bytes.U8(0x0f, "the minor version")) +
               ": this reader knows version 4 (HPCToolkit 2022.10 and later)");
  *minor = bytes.U8(0x0f, "the minor version");
  std::vector<Section> out(sections);
  for (std::size_t k = 0; k < sections; ++k) {
    out[k].size = bytes.U64(kSectionTable + 16 * k, "a section size");
    out[k].offset = bytes.U64(kSectionTable + 16 * k + 8, "a section pointer");
    if (out[k].offset > file_size || out[k].size > file_size - out[k].offset)
      bytes.Fail("section " + std::to_string(k + 1) + " (bytes " + std::to_string(out[k].offset) + " + " +
                 std::to_string(out[k].size) + ") lies beyond the file's " + std::to_string(file_size) +
                 " bytes: damaged or cut short");
  }
  return out;
}

Bytes SectionOf(const Bytes& file, const Section& section) {
  return Bytes{file.data.substr(section.offset, section.size), file.path, section.offset};
}

bool IsGpuKind(const std::string& name) { return StartsWith(name, "GPU"); }

}  // namespace

bool LooksLikeHpctoolkitMeta(std::string_view text) {
  return text.size() >= 16 && text.substr(0, 10) == kMagic && text.substr(10, 4) == "meta";
}

HpctoolkitMeta ParseHpctoolkitMeta(std::string_view data, const std::string& path) {
  const Bytes file{data, path};
  HpctoolkitMeta meta;
  int minor = 0;
  const std::vector<Section> sections = ReadHeader(file, data.size(), "meta", kMetaSections, &minor);
  meta.version = "4." + std::to_string(minor);
  if (data.size() < kFooterBytes || data.substr(data.size() - kFooterBytes) != "_meta.db")
    file.Fail("no _meta.db footer at its end: cut short or damaged");
  const Bytes general = SectionOf(file, sections[0]), names = SectionOf(file, sections[1]),
              metrics = SectionOf(file, sections[2]), tree = SectionOf(file, sections[3]);
  // Strings of the functions and entry points live in the common string table; a pointer is
  // checked against the file (the format says which section; a pointer outside any is damage).
  if (const std::uint64_t title = general.U64(sections[0].offset, "the title pointer"); title != 0)
    meta.title = general.Text(title, "the title");

  const std::uint64_t kinds_at = names.U64(sections[1].offset, "the identifier names pointer");
  const int kinds = names.U8(sections[1].offset + 8, "the number of identifier kinds");
  for (int k = 0; k < kinds; ++k)
    meta.kind_names.push_back(names.Text(names.U64(kinds_at + 8 * k, "an identifier name pointer"), "an identifier name"));

  // The time metric: wall clock where the run sampled it, else CPU time; its "execution" scope,
  // which sums every descendant (FORMATS.md: propagation scope type 2, inclusive cost).
  const std::uint64_t m0 = sections[2].offset;
  const std::uint64_t metric_at = metrics.U64(m0, "the metrics pointer");
  const std::uint32_t metric_count = metrics.U32(m0 + 8, "the number of metrics");
  const std::uint8_t metric_size = metrics.U8(m0 + 0x0c, "the metric description size");
  const std::uint8_t instance_size = metrics.U8(m0 + 0x0d, "the scope instance size");
  if (metric_size < 0x1c || instance_size < 0x0a) file.Fail("metric descriptions smaller than format 4's");
  int best_rank = 0;
  std::string names_seen;
  for (std::uint32_t m = 0; m < metric_count; ++m) {
    const std::uint64_t at = metric_at + static_cast<std::uint64_t>(m) * metric_size;
    const std::string name = metrics.Text(metrics.U64(at, "a metric name pointer"), "a metric name");
    if (names_seen.size() < 200) names_seen += (names_seen.empty() ? "" : ", ") + name;
    const std::uint64_t instances = metrics.U64(at + 8, "a metric's scope instances");
    const std::uint16_t instance_count = metrics.U16(at + 0x18, "a metric's number of scopes");
    const int rank = TimeMetricRank(name);
    if (rank <= best_rank) continue;
    for (std::uint16_t k = 0; k < instance_count; ++k) {
      const std::uint64_t instance = instances + static_cast<std::uint64_t>(k) * instance_size;
      const std::uint64_t scope = metrics.U64(instance, "a propagation scope pointer");
      const std::uint16_t id = metrics.U16(instance + 8, "a propagated metric id");
      const std::string scope_name = metrics.Text(metrics.U64(scope, "a scope name pointer"), "a scope name");
      if (metrics.U8(scope + 8, "a scope type") == 2 || scope_name == "execution") {
        best_rank = rank;
        meta.time_metric = name;
        meta.time_metric_id = id;
        const double unit = SecondsPerUnit(name);
        meta.seconds_per_unit = unit > 0 ? unit : 1.0;  // format 4 writes times in seconds
        break;
      }
    }
  }
  if (best_rank == 0)
    file.Fail("no time metric (REALTIME, WALLCLOCK or CPUTIME) with an inclusive (execution) scope" +
              (names_seen.empty() ? std::string() : " (has: " + names_seen + ")"));

  // The context tree, depth first without recursion (a hostile tree may be deep); each array of
  // contexts is read once at most: as many contexts as the section can hold bounds the walk.
  const std::uint64_t t0 = sections[3].offset;
  const std::uint64_t entries_at = tree.U64(t0, "the entry points pointer");
  const std::uint16_t entry_count = tree.U16(t0 + 8, "the number of entry points");
  const std::uint8_t entry_size = tree.U8(t0 + 0x0a, "the entry point size");
  if (entry_count > 0 && entry_size < 0x14) file.Fail("entry points smaller than format 4's");
  struct Pending {
    std::uint64_t at, size;
    bool under_mpi;
  };
  std::vector<Pending> stack;
  for (std::uint16_t e = 0; e < entry_count; ++e) {
    const std::uint64_t at = entries_at + static_cast<std::uint64_t>(e) * entry_size;
    meta.entry_points.push_back(tree.U32(at + 0x10, "an entry point's context id"));
    if (const std::uint64_t size = tree.U64(at, "an entry point's children size"); size > 0)
      stack.push_back({tree.U64(at + 8, "an entry point's children pointer"), size, false});
  }
  const Bytes whole{data, path};
  std::uint64_t budget = sections[3].size / 0x20 + 1;
  while (!stack.empty()) {
    const Pending array = stack.back();
    stack.pop_back();
    tree.Need(array.at, array.size, "an array of contexts");
    for (std::uint64_t at = array.at; at < array.at + array.size;) {
      if (budget-- == 0) file.Fail("the context tree refers to a context twice (a loop): damaged");
      const std::uint64_t children = tree.U64(at, "a context's children size");
      const std::uint64_t children_at = tree.U64(at + 8, "a context's children pointer");
      const std::uint32_t id = tree.U32(at + 0x10, "a context id");
      const std::uint8_t flags = tree.U8(at + 0x14, "a context's flags");
      const std::uint8_t lexical = tree.U8(at + 0x16, "a context's lexical type");
      const std::uint8_t words = tree.U8(at + 0x17, "a context's flex size");
      std::string routine;
      if ((flags & 1) != 0 && lexical == 0) {  // a function, flex[0] its description
        if (words < 1) file.Fail("a function context without its function (context " + std::to_string(id) + ")");
        const std::uint64_t function = tree.U64(at + 0x20, "a context's function pointer");
        const std::uint64_t name_at = whole.U64(function, "a function's name pointer");
        if (name_at != 0) routine = MpiRoutineOf(whole.Text(name_at, "a function name"));
      }
      if (!routine.empty() && !array.under_mpi) meta.mpi_frames.push_back({id, routine});
      if (children > 0) stack.push_back({children_at, children, array.under_mpi || !routine.empty()});
      at += 0x20 + 8ULL * words;
    }
  }
  return meta;
}

HpctoolkitProfileDb::HpctoolkitProfileDb(const std::string& path, const HpctoolkitMeta& meta)
    : path_(path), meta_(&meta), in_(path, std::ios::binary | std::ios::ate) {
  if (!in_) throw InputError(path, 0, "cannot open");
  const std::streamoff end = in_.tellg();
  if (end < 0) throw InputError(path, 0, "cannot read its size");
  size_ = static_cast<std::uint64_t>(end);
  const std::string head = Read(0, std::min<std::uint64_t>(size_, kSectionTable + 16 * kProfileSections), "the header");
  int minor = 0;
  const std::vector<Section> sections =
      ReadHeader(Bytes{head, path_}, size_, "prof", kProfileSections, &minor);
  if (size_ < kFooterBytes || Read(size_ - kFooterBytes, kFooterBytes, "the footer") != "_prof.db")
    throw InputError(path_, 0, "no _prof.db footer at its end: cut short or damaged");
  for (const Section& section : sections)
    if (section.size > kMaxProfileSection)
      throw InputError(path_, 0, "a section of " + std::to_string(section.size) + " bytes: more than the " +
                                     std::to_string(kMaxProfileSection >> 20) + " MiB read of one");
  const std::string infos_bytes = Read(sections[0].offset, sections[0].size, "the profile list");
  const std::string tuples_bytes = Read(sections[1].offset, sections[1].size, "the identifier tuples");
  const Bytes infos{infos_bytes, path_, sections[0].offset}, tuples{tuples_bytes, path_, sections[1].offset};
  const std::uint64_t list = infos.U64(sections[0].offset, "the profiles pointer");
  const std::uint32_t count = infos.U32(sections[0].offset + 8, "the number of profiles");
  const std::uint8_t stride = infos.U8(sections[0].offset + 0x0c, "the profile description size");
  if (count > 0 && stride < 0x2c) throw InputError(path_, 0, "profile descriptions smaller than format 4's");
  for (std::uint32_t p = 0; p < count; ++p) {
    const std::uint64_t at = list + static_cast<std::uint64_t>(p) * stride;
    const std::uint64_t tuple = infos.U64(at + 0x20, "a profile's identifier tuple");
    if ((infos.U32(at + 0x28, "a profile's flags") & 1) != 0 || tuple == 0) continue;  // a summary
    HpctoolkitV4Profile profile;
    profile.block = at;
    const std::uint16_t ids = tuples.U16(tuple, "an identifier tuple's size");
    for (std::uint16_t k = 0; k < ids; ++k) {
      const std::uint64_t id = tuple + 8 + 16ULL * k;
      const std::uint8_t kind = tuples.U8(id, "an identifier's kind");
      const std::uint32_t logical = tuples.U32(id + 4, "an identifier's logical id");
      const std::string name = kind < meta.kind_names.size() ? meta.kind_names[kind] : std::string();
      if (name == "RANK") profile.rank = static_cast<int>(std::min<std::uint32_t>(logical, 1u << 30));
      if (name == "THREAD") profile.thread = static_cast<int>(std::min<std::uint32_t>(logical, 1u << 30));
      if (IsGpuKind(name)) profile.gpu = true;
      if (name == "NODE") {
        profile.has_node = true;
        profile.node = tuples.U64(id + 8, "a node's physical id");
      }
    }
    profiles_.push_back(profile);
  }
  // The value block headers are read with their profile (Times): keep the list's bytes.
  infos_ = infos_bytes;
  infos_offset_ = sections[0].offset;
}

std::string HpctoolkitProfileDb::Read(std::uint64_t offset, std::uint64_t size, const char* what) const {
  if (offset > size_ || size > size_ - offset)
    throw InputError(path_, 0, std::string(what) + " at byte " + std::to_string(offset) + " (+" + std::to_string(size) +
                                   ") lies beyond the file's " + std::to_string(size_) + " bytes: damaged or cut short");
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in_.clear();
  in_.seekg(static_cast<std::streamoff>(offset));
  if (!in_.read(bytes.data(), static_cast<std::streamsize>(size))) throw InputError(path_, 0, "cannot read " + std::string(what));
  bytes_read_ += static_cast<double>(size);
  return bytes;
}

HpctoolkitRankTimes HpctoolkitProfileDb::Times(const HpctoolkitV4Profile& profile) const {
  const Bytes infos{infos_, path_, infos_offset_};
  const std::uint64_t values = infos.U64(profile.block, "a profile's value count");
  const std::uint64_t values_at = infos.U64(profile.block + 8, "a profile's values pointer");
  const std::uint32_t contexts = infos.U32(profile.block + 0x10, "a profile's context count");
  const std::uint64_t index_at = infos.U64(profile.block + 0x18, "a profile's context index pointer");
  const std::string rank = "rank " + std::to_string(profile.rank) + ", thread " + std::to_string(profile.thread);
  if (values > kMaxValueBlock / 10 || contexts > kMaxValueBlock / 12)
    throw InputError(path_, 0, rank + ": a value block of " + std::to_string(values) + " values over " +
                                   std::to_string(contexts) + " contexts, more than is read of one profile");
  const std::string value_bytes = Read(values_at, values * 10, "a profile's values");
  const std::string index_bytes = Read(index_at, contexts * 12ULL, "a profile's context index");
  digests_ += ContentDigest(value_bytes) + ContentDigest(index_bytes);
  const Bytes value_list{value_bytes, path_, values_at}, index{index_bytes, path_, index_at};
  // Sorted by context id, each context's values from its start index to the next one's.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> starts(contexts);
  for (std::uint32_t k = 0; k < contexts; ++k) {
    starts[k] = {index.U32(index_at + 12ULL * k, "a context id"), index.U64(index_at + 12ULL * k + 4, "a start index")};
    if (starts[k].second > values || (k > 0 && (starts[k].first <= starts[k - 1].first ||
                                                 starts[k].second < starts[k - 1].second)))
      throw InputError(path_, 0, rank + ": its context index is not sorted within its values: damaged");
  }
  auto inclusive = [&](std::uint32_t context) {
    const auto it = std::lower_bound(starts.begin(), starts.end(), std::make_pair(context, std::uint64_t{0}),
                                     [](const auto& a, const auto& b) { return a.first < b.first; });
    if (it == starts.end() || it->first != context) return 0.0;  // no value: zero (sparse)
    const std::uint64_t end = it + 1 == starts.end() ? values : (it + 1)->second;
    for (std::uint64_t v = it->second; v < end; ++v)
      if (value_list.U16(values_at + 10 * v, "a metric id") == meta_->time_metric_id) {
        const double value = value_list.F64(values_at + 10 * v + 2, "a metric value");
        if (!std::isfinite(value) || value < 0)
          throw InputError(path_, 0, rank + ": " + meta_->time_metric + " of context " + std::to_string(context) +
                                         " is " + FormatDouble("%g", value) + ", not a time");
        return value * meta_->seconds_per_unit;
      }
    return 0.0;
  };
  HpctoolkitRankTimes times;
  for (std::uint32_t entry : meta_->entry_points) times.app_s += inclusive(entry);
  for (const HpctoolkitMeta::MpiFrame& frame : meta_->mpi_frames) {
    times.routine_s.push_back(inclusive(frame.context));
    times.mpi_s += times.routine_s.back();
  }
  if (times.mpi_s > times.app_s * (1 + 1e-9))
    throw InputError(path_, 0, rank + ": MPI frames hold more time than the whole tree");
  return times;
}

}  // namespace qnm
