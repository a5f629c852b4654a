#include "ingest/archived_trace.h"

#include <filesystem>
#include <new>
#include <stdexcept>
#include <vector>

#include "textio/compressed_file.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// An archive is read whole before it is unpacked (as ingest reads one: input_size_limits.h).
constexpr long long kMaxArchiveBytes = 512LL << 20;

// The bytes of `path` when it is a tar or zip archive (plain or compressed), read once; empty otherwise.
std::string ArchiveBytes(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return {};
  const std::string head = ReadFileHead(path, 512);
  if (!CompressionOf(head).empty()) {
    // A compressed stream unpacks its first bytes only with what follows them: judged on the whole file
    // (an anchor is never compressed, so a compressed file is an archive or no trace at all).
    std::string bytes = ReadFile(path, kMaxArchiveBytes);
    return IsArchiveOfRuns(path, UnpackedHead(bytes, 512)) ? bytes : std::string();
  }
  if (!IsArchiveOfRuns(path, head)) return {};
  const auto size = std::filesystem::file_size(path, error);
  if (!error && static_cast<long long>(size) > kMaxArchiveBytes)
    throw InputError(path, 0, "not read: " + FormatByteSize(static_cast<double>(size)) + ", larger than the " +
                                  FormatByteSize(static_cast<double>(kMaxArchiveBytes)) +
                                  " limit for an archive (unpack it and name the trace's folder)");
  return ReadFile(path, kMaxArchiveBytes);
}

}  // namespace

TraceInput::TraceInput(const std::string& path) : read_path_(path), shown_path_(path) {
  const std::string bytes = ArchiveBytes(path);
  if (bytes.empty()) return;
  traces_ = std::make_unique<ArchivedTraces>(path);
  ForEachArchivedFile(bytes, path, kMaxArchiveBytes, [](ArchivedFile) {}, traces_.get());
  std::vector<const ArchivedTraces::Anchor*> otf2;
  for (const ArchivedTraces::Anchor& anchor : traces_->Anchors())
    if (EndsWith(ToLower(anchor.disk_path), ".otf2")) otf2.push_back(&anchor);
  if (otf2.empty()) throw InputError(path, 0, "the archive holds no OTF2 trace (no .otf2 anchor)");
  if (otf2.size() > 1) {
    std::string names;
    for (std::size_t k = 0; k < otf2.size() && k < 3; ++k)
      names += (k ? ", " : "") + otf2[k]->archive_path.substr(path.size() + 1);
    throw InputError(path, 0, "the archive holds " + std::to_string(otf2.size()) + " OTF2 traces (" + names +
                                  (otf2.size() > 3 ? ", ..." : "") + "): unpack it and name one");
  }
  read_path_ = otf2.front()->disk_path;
  shown_path_ = otf2.front()->archive_path;
}

std::string TraceInput::Told(const std::string& text) const { return traces_ ? traces_->InArchive(text) : text; }

std::string ToldByAll(const std::vector<const TraceInput*>& inputs, std::string text) {
  for (const TraceInput* input : inputs) text = input->Told(text);
  return text;
}

void RunTellingArchiveMembers(const std::vector<const TraceInput*>& inputs, const std::function<void()>& run) {
  auto told = [&](const std::string& text) { return ToldByAll(inputs, text); };
  try {
    run();
  } catch (const InputError& error) {
    throw InputError(told(error.file()), error.line(), told(error.message()));
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& error) {
    throw std::runtime_error(told(error.what()));
  }
}

}  // namespace qnm
