#include "plots/chart_writer.h"

#include <gnuplot-iostream.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <regex>
#include <sstream>
#include <system_error>

#include "plots/gnuplot_available.h"
#include "util/atomic_directory.h"
#include "util/atomic_file.h"
#include "util/text_format.h"

namespace qnm::plots {
namespace fs = std::filesystem;

void DataFile::Block(const std::string& name, const std::string& columns) {
  // Two blank lines separate gnuplot data blocks; the first comment names the block.
  if (!first_block_) text_ += "\n\n";
  first_block_ = false;
  text_ += "# " + name + "\n# " + columns + "\n";
}

void DataFile::Row(const std::vector<double>& values) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text_ += ' ';
    text_ += FormatValue(values[i]);
  }
  text_ += '\n';
}

std::string GnuplotQuote(const std::string& text) {
  // Inside single quotes gnuplot knows one escape: '' for a quote.
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += "''";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out + "'";
}

namespace {

/// `text` cut to `max_chars` (UTF-8 aware: never inside a character) by dropping its middle.
std::string ShortenMiddle(const std::string& text, std::size_t max_chars) {
  if (text.size() <= max_chars || max_chars < 8) return text;
  auto boundary = [&](std::size_t at) {  // back to the start of a UTF-8 character
    while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
    return at;
  };
  const std::size_t keep = max_chars - 3;  // "..." is three characters, one glyph each
  std::size_t head = boundary(keep / 2), tail = boundary(text.size() - (keep - keep / 2));
  return text.substr(0, head) + "..." + text.substr(tail);
}

/// `line`s as one double-quoted gnuplot string, joined by "\n" (gnuplot breaks the title there).
std::string DoubleQuotedLines(const std::vector<std::string>& lines) {
  std::string out = "\"";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += "\\n";
    for (char c : lines[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c == '\n' ? ' ' : c;
    }
  }
  return out + "\"";
}

}  // namespace

std::string GnuplotTitle(const std::string& title, std::size_t max_chars) {
  if (title.size() <= max_chars) return GnuplotQuote(title);
  std::size_t colon = title.rfind(": ");
  if (colon == std::string::npos) return GnuplotQuote(ShortenMiddle(title, max_chars));
  return DoubleQuotedLines({ShortenMiddle(title.substr(0, colon + 1), max_chars),
                            ShortenMiddle(title.substr(colon + 2), max_chars)});
}

std::string FormatValue(double value) { return FormatFinite("%.9g", value, "NaN"); }

std::string ChartTitle(const ChartContext& context, const std::string& what) {
  std::string title = context.series_name.empty() ? "series" : context.series_name;
  if (!context.machine.empty()) title += " on " + context.machine;
  return title + ": " + what;
}

std::string SeriesStem(const ChartContext& context) {
  std::string raw = !context.file_stem.empty() ? context.file_stem : context.series_name;
  std::string stem;
  for (char c : raw) {
    bool safe = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
    stem += safe ? c : '_';
  }
  if (stem.empty() || stem == "." || stem == "..") stem = "series";
  if (stem.front() == '.') stem.front() = '_';  // never a hidden file
  return stem;
}

std::string ProcessAxis(std::vector<int> procs, double pad, int max_tics) {
  std::sort(procs.begin(), procs.end());
  procs.erase(std::unique(procs.begin(), procs.end()), procs.end());
  if (procs.empty()) return "set logscale x 2\nset xlabel 'processes P'\n";
  std::string tics = "set logscale x 2\nset xlabel 'processes P'\n";
  tics += "set xrange [" + FormatValue(procs.front() / pad) + ":" +
          FormatValue(procs.back() * pad) + "]\n";
  // A tic per P while they fit (`max_tics`: 16 across a whole chart, fewer in a panel of
  // several); beyond, those at least 1/max_tics of the axis apart in log P, the largest
  // always: a --procs 1..256 sweep otherwise prints 256 labels on top of each other.
  std::vector<int> shown;
  const double most = std::max(2, max_tics);
  const double gap = static_cast<double>(procs.size()) > most ? std::log2(double(procs.back()) / procs.front()) / most : 0.0;
  for (int p : procs) {
    if (!shown.empty() && std::log2(double(p) / shown.back()) < gap - 1e-12) continue;
    shown.push_back(p);
  }
  if (shown.back() != procs.back()) {
    if (shown.size() > 1 && std::log2(double(procs.back()) / shown.back()) < gap) shown.pop_back();
    shown.push_back(procs.back());
  }
  tics += "set xtics (";
  for (std::size_t i = 0; i < shown.size(); ++i) {
    if (i > 0) tics += ", ";
    tics += std::to_string(shown[i]);
  }
  return tics + ")\n";
}

std::string RunTimeAxes(const std::vector<int>& procs, double y_low, double y_high) {
  return ProcessAxis(procs) + "set ylabel 'run time (s)'\nset logscale y 10\nset format y '%g'\n" +
         "set grid xtics ytics mytics lc rgb '#cccccc'\n" +
         "set key outside right top vertical box samplen 3 spacing 1.2\n" +
         "set autoscale yfix\nset offsets 0, 0, graph 0.06, graph 0.06\n" + LogTics(y_low, y_high);
}

std::string LogTics(double low, double high) {
  if (!(low > 0) || !(high >= low) || !std::isfinite(high)) return "set ytics auto\n";
  const bool decades_only = std::log10(high / low) > 4;
  std::string tics = "set ytics (";
  bool first = true;
  for (int exponent = int(std::floor(std::log10(low))); exponent <= int(std::ceil(std::log10(high)));
       ++exponent) {
    for (double mantissa : {1.0, 2.0, 5.0}) {
      if (decades_only && mantissa != 1.0) continue;
      const double tic = mantissa * std::pow(10.0, exponent);
      if (tic < low / 1.15 || tic > high * 1.15) continue;
      tics += (first ? "" : ", ") + FormatValue(tic);
      first = false;
    }
  }
  return first ? "set ytics auto\n" : tics + ")\n";
}

std::string PlotCommand(const std::vector<std::string>& clauses) {
  std::string command = "plot ";
  bool file_named = false;
  for (std::size_t i = 0; i < clauses.size(); ++i) {
    if (i > 0) command += ", \\\n     ";
    if (!file_named && clauses[i].rfind("''", 0) == 0) {
      command += "datafile" + clauses[i].substr(2);
      file_named = true;
    } else {
      command += clauses[i];
    }
  }
  return command + "\n";
}

std::string ScriptText(const ChartScript& chart, const std::string& file_stem) {
  const std::string w = std::to_string(chart.width_px), h = std::to_string(chart.height_px);
  char inches[64];
  std::snprintf(inches, sizeof inches, "%.2fin,%.2fin", chart.width_px / 96.0,
                chart.height_px / 96.0);
  std::ostringstream gp;
  gp << "# " << chart.title << "\n"
     << "# Written by qnm-predict; data in " << file_stem << ".dat. Re-draw from this directory:\n"
     << "#   gnuplot " << file_stem << ".gp                  -> " << file_stem << ".png\n"
     << "#   gnuplot -e \"fmt='svg'\" " << file_stem << ".gp   -> " << file_stem
     << ".svg (also 'pdf')\n"
     << "if (!exists(\"fmt\")) fmt = 'png'\n"
     << "reset\n"
     << "if (fmt eq 'svg') {\n"
     << "  set terminal svg size " << w << "," << h
     << " dynamic noenhanced font 'Sans,12' background '#ffffff'\n"
     << "} else { if (fmt eq 'pdf') {\n"
     << "  set terminal pdfcairo size " << inches << " noenhanced font 'Sans,9'\n"
     << "} else { if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
     << "  set terminal pngcairo size " << w << "," << h << " noenhanced font 'Sans,11'\n"
     << "} else {\n"
     << "  set terminal png size " << w << "," << h << " noenhanced\n"
     << "} } }  # gnuplot 5.4 has no 'else if'\n"
     << "set output '" << file_stem << ".'.fmt\n"
     << "datafile = " << GnuplotQuote(file_stem + ".dat") << "\n"
     << chart.body << "unset output\n";
  return gp.str();
}

namespace {

std::string ShellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

/// Ignores SIGPIPE while alive: if gnuplot dies early, writing to its pipe
/// must fail with an error instead of killing this process.
class PipeSignalGuard {
 public:
  PipeSignalGuard() { previous_ = std::signal(SIGPIPE, SIG_IGN); }
  ~PipeSignalGuard() { std::signal(SIGPIPE, previous_); }
  PipeSignalGuard(const PipeSignalGuard&) = delete;
  PipeSignalGuard& operator=(const PipeSignalGuard&) = delete;

 private:
  void (*previous_)(int);
};

constexpr const char* kExitedWith = "gnuplot exited with status";

/// Splits gnuplot's stderr into warnings and the first error message.
void ReadGnuplotLog(const std::string& log, std::vector<std::string>* warnings,
                    std::string* first_error) {
  static const std::regex kLocated(R"(line \d+: )");
  std::string exit_status;  // only when gnuplot failed without naming a line
  std::stringstream lines(log);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find("warning:") != std::string::npos) {
      const std::string warning = "gnuplot: " + line;
      if (std::find(warnings->begin(), warnings->end(), warning) == warnings->end())
        warnings->push_back(warning);
    } else if (std::regex_search(line, kLocated)) {
      if (first_error->empty()) *first_error = line.substr(line.find_first_not_of(" \t"));
    } else if (exit_status.empty() && line.rfind(kExitedWith, 0) == 0) {
      exit_status = line;
    }
  }
  if (first_error->empty()) *first_error = exit_status;
}

bool Fail(std::string* error, const std::string& message) {
  if (error != nullptr) *error = message;
  return false;
}

}  // namespace

bool RenderCharts(const std::vector<ChartScript>& charts, const std::string& stem,
                  const PlotOptions& options, PlotResult* result, std::string* error) {
  PlotResult unused;
  if (result == nullptr) result = &unused;
  const std::string gnuplot = FindGnuplot();
  if (gnuplot.empty()) return Fail(error, "gnuplot not found; install gnuplot-nox — charts skipped");
  if (options.output_dir.empty()) return Fail(error, "no output directory given for the charts");

  std::vector<std::string> formats;
  if (options.png) formats.push_back("png");
  if (options.svg) formats.push_back("svg");
  if (options.pdf) {
    if (HasTerminal(GnuplotTerminals(gnuplot), "pdfcairo")) formats.push_back("pdf");
    else result->warnings.push_back("gnuplot has no pdfcairo terminal; PDF charts skipped");
  }

  std::error_code ec;
  fs::create_directories(options.output_dir, ec);
  if (ec) return Fail(error, options.output_dir + ": cannot create directory: " + ec.message());
  std::unique_ptr<TempDirectory> temp_dir;
  try {
    temp_dir = std::make_unique<TempDirectory>(options.output_dir, ".qnm-charts-");
  } catch (const std::exception& e) {
    return Fail(error, e.what());
  }
  const TempDirectory& temp = *temp_dir;

  std::vector<std::string> files;  // names inside temp, in the order they are moved
  try {
    for (const ChartScript& chart : charts) {
      const std::string file_stem = stem + "_" + chart.name;
      WriteFileAtomically(temp.path() + "/" + file_stem + ".dat", chart.data);
      WriteFileAtomically(temp.path() + "/" + file_stem + ".gp", ScriptText(chart, file_stem));
      files.push_back(file_stem + ".dat");
      files.push_back(file_stem + ".gp");
    }
  } catch (const std::exception& e) {
    return Fail(error, e.what());
  }

  const std::string log_path = temp.path() + "/gnuplot.log";
  {
    PipeSignalGuard guard;
    for (const ChartScript& chart : charts) {
      for (const std::string& fmt : formats) {
        // One gnuplot per image, run inside the temporary directory: its
        // terminals keep state between plots, and the image must equal what
        // `gnuplot <script>` gives a user re-drawing it.
        // The shell itself always succeeds (gnuplot's failure goes to the log),
        // so gnuplot-iostream does not print its own "pclose returned error".
        gnuplotio::Gnuplot gp("cd " + ShellQuote(temp.path()) + " && " + ShellQuote(gnuplot) +
                              " 2>>" + ShellQuote(log_path) + " || echo " + kExitedWith +
                              " $? >>" + ShellQuote(log_path));
        gp << "fmt = '" << fmt << "'\nload '" << stem << "_" << chart.name << ".gp'\nexit\n";
      }  // closing the pipe waits for gnuplot to finish
    }
  }

  std::string log, first_error;
  try {
    log = ReadFile(log_path);
  } catch (const std::exception&) {
    // No log means the shell never started gnuplot; the missing images say so below.
  }
  ReadGnuplotLog(log, &result->warnings, &first_error);
  if (!first_error.empty())
    return Fail(error, options.output_dir + ": gnuplot: " + first_error + " — no charts written");

  for (const ChartScript& chart : charts) {
    for (const std::string& fmt : formats) {
      const std::string image = stem + "_" + chart.name + "." + fmt;
      std::error_code size_error;
      auto size = fs::file_size(temp.path() + "/" + image, size_error);
      if (size_error || size == 0) {
        return Fail(error, (fs::path(options.output_dir) / image).string() +
                               ": gnuplot wrote no image — no charts written");
      }
      files.push_back(image);
    }
  }

  // Where a chart file would land on a folder, fail before moving anything.
  for (const std::string& file : files) {
    const std::string target = (fs::path(options.output_dir) / file).string();
    if (fs::is_directory(fs::symlink_status(target, ec)))
      return Fail(error, target + ": cannot write: is a directory — no charts written");
  }
  for (const std::string& file : files) {
    const std::string target = (fs::path(options.output_dir) / file).string();
    const std::string built = (fs::path(temp.path()) / file).string();
    // A new or regular file is renamed into place; a symbolic link, FIFO or
    // device is written through (its node stays), as for every other output.
    fs::file_status status = fs::symlink_status(target, ec);
    if (!fs::exists(status) || fs::is_regular_file(status)) {
      fs::rename(built, target, ec);
      if (ec) return Fail(error, target + ": cannot move into place: " + ec.message());
    } else {
      try {
        WriteFileAtomically(target, ReadFile(built));
      } catch (const std::exception& e) {
        return Fail(error, e.what());
      }
    }
    result->files.push_back(target);
  }
  return true;
}

}  // namespace qnm::plots
