#include "cube/cube_set.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <regex>

#include "cube/cube_profile.h"
#include "extrap/extrap_data_builder.h"
#include "reader/run_selection.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm {
namespace {

namespace fs = std::filesystem;

std::string Names(const std::vector<std::pair<std::string, double>>& parameters) {
  std::string text;
  for (const auto& [name, value] : parameters) text += (text.empty() ? "" : ", ") + name;
  return text;
}

// Call-path names as Extra-P builds them: region names joined by "->".
std::vector<std::string> CallPathNames(const CubeProfile& profile) {
  std::vector<std::string> names(profile.call_nodes.size());
  for (std::size_t n = 0; n < profile.call_nodes.size(); ++n) {  // parents come before children
    const CubeCallNode& node = profile.call_nodes[n];
    const std::string& region = profile.regions[static_cast<std::size_t>(node.region)].name;
    names[n] = node.parent < 0 ? region : names[static_cast<std::size_t>(node.parent)] + "->" + region;
  }
  return names;
}

}  // namespace

bool ParseCubeSetFolder(const std::string& folder, std::vector<std::pair<std::string, double>>* parameters) {
  parameters->clear();
  std::size_t start = folder.find('.');
  start = start == std::string::npos ? 0 : start + 1;
  std::size_t end = folder.find(".r");
  std::string text = folder.substr(start, end == std::string::npos ? std::string::npos : end - start);
  // Alternating names and numbers; a number is digits with '.' or ',' (a
  // decimal comma, or a separator that ends up trailing and is dropped).
  static const std::regex kNumber("[0-9.,]+");
  std::size_t at = 0;
  std::string name;
  for (std::sregex_iterator it(text.begin(), text.end(), kNumber), stop; it != stop; ++it) {
    name = text.substr(at, static_cast<std::size_t>(it->position()) - at);
    std::string number = it->str();
    std::replace(number.begin(), number.end(), ',', '.');
    while (!number.empty() && number.back() == '.') number.pop_back();
    std::optional<double> value = ParseDouble(number);
    if (name.empty() || !value) return false;
    parameters->emplace_back(name, *value);
    at = static_cast<std::size_t>(it->position() + it->length());
  }
  return !parameters->empty();
}

ExtrapData ReadCubeSetData(const std::string& directory) {
  std::error_code error;
  if (!fs::is_directory(directory, error)) throw InputError(directory, 0, "a cube set is a directory of <app>.<parameters>.r<repetition> folders");
  struct Profile {
    std::string path;
    std::vector<double> point;
  };
  std::vector<Profile> profiles;
  std::vector<std::pair<std::string, double>> first;
  std::string first_folder;
  std::vector<fs::path> files;
  for (const fs::directory_entry& folder : fs::directory_iterator(directory, error)) {
    if (!folder.is_directory(error)) continue;
    for (const fs::directory_entry& file : fs::directory_iterator(folder.path(), error))
      if (file.is_regular_file(error) && file.path().extension() == ".cubex" && file.path().filename().string()[0] != '.')
        files.push_back(file.path());
  }
  if (files.empty()) throw InputError(directory, 0, "no cube files (<folder>/*.cubex) in the cube set");
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    std::string folder = file.parent_path().filename().string();
    std::vector<std::pair<std::string, double>> parameters;
    if (!ParseCubeSetFolder(folder, &parameters))
      throw InputError(file.string(), 0, "folder '" + folder + "' names no parameter (<app>.<name><value>….r<repetition>)");
    if (first_folder.empty()) {
      first = parameters;
      first_folder = folder;
    } else {
      bool same = parameters.size() == first.size();
      for (std::size_t k = 0; same && k < parameters.size(); ++k) same = parameters[k].first == first[k].first;
      if (!same)
        throw InputError(directory, 0, "folders name different parameters: " + folder + " (" + Names(parameters) + ") and " +
                                           first_folder + " (" + Names(first) + "); all must name the same ones in the same order");
    }
    std::vector<double> point;
    for (const auto& [name, value] : parameters) point.push_back(value);
    profiles.push_back({file.string(), point});
  }
  // Parameters constant over the set are not parameters of the experiment.
  std::vector<std::size_t> varying;
  for (std::size_t k = 0; k < first.size(); ++k)
    for (const Profile& profile : profiles)
      if (profile.point[k] != profiles.front().point[k]) {
        varying.push_back(k);
        break;
      }
  if (varying.empty()) throw InputError(directory, 0, "no parameter varies over the cube set's folders");
  std::vector<std::string> names;
  for (std::size_t k : varying) names.push_back(first[k].first);
  for (Profile& profile : profiles) {
    std::vector<double> point;
    for (std::size_t k : varying) point.push_back(profile.point[k]);
    profile.point = std::move(point);
  }
  std::stable_sort(profiles.begin(), profiles.end(), [](const Profile& a, const Profile& b) { return a.point < b.point; });
  ExtrapDataBuilder builder(names);
  for (const Profile& entry : profiles) {
    CubeProfile profile = ParseCubeProfile(ReadFile(entry.path), entry.path);
    std::vector<std::string> callpaths = CallPathNames(profile);
    const std::size_t columns = profile.locations.size();
    const std::pair<const char*, const std::vector<double>*> metrics[] = {
        {"time", &profile.exclusive_time}, {"visits", &profile.exclusive_visits}, {"bytes_sent", &profile.exclusive_bytes_sent}};
    for (const auto& [metric, values] : metrics) {
      if (values->empty()) continue;
      for (std::size_t n = 0; n < callpaths.size(); ++n)
        builder.Add(callpaths[n], metric, entry.point,
                    std::vector<double>(values->begin() + static_cast<std::ptrdiff_t>(n * columns),
                                        values->begin() + static_cast<std::ptrdiff_t>((n + 1) * columns)));
    }
  }
  return builder.Take();
}

bool ApplyCubeSetSelection(const std::string& profile_path, const RunSelection& selection, RunStats* run) {
  if (selection.parameter.empty() && selection.where.empty()) return true;
  std::string folder = fs::path(profile_path).parent_path().filename().string();
  std::vector<std::pair<std::string, double>> parameters;
  if (!ParseCubeSetFolder(folder, &parameters)) return true;  // not a cube-set folder: the profile's own identity
  std::string others;
  bool have_parameter = false;
  for (const auto& [name, value] : parameters) {
    const std::string& parameter = name;  // a structured binding cannot be captured before C++20 (clang)
    auto fixed = std::find_if(selection.where.begin(), selection.where.end(),
                              [&](auto& w) { return w.first == parameter; });
    if (fixed != selection.where.end() && fixed->second != value) return false;
    if (name == selection.parameter) {
      if (value < 1 || value > 1e8 || value != std::floor(value))
        throw InputError(profile_path, 0, "folder " + folder + ": " + name + "=" + std::to_string(value) +
                                              " is not a process count (a whole number from 1)");
      run->procs = static_cast<int>(value);
      run->derivations["procs"] = "cube-set folder name: parameter " + name + " (--parameter)";
      have_parameter = true;
    } else {
      others += name + FormatExtrapNumber(value);
    }
  }
  if (!selection.parameter.empty() && !have_parameter)
    throw InputError(profile_path, 0, "--parameter " + selection.parameter + ": folder " + folder + " names " + Names(parameters));
  std::size_t dot = folder.find('.');
  auto said = run->derivations.find("app");
  bool from_file_name = run->app.empty() || (said != run->derivations.end() && StartsWith(said->second, "file name"));
  if (dot != std::string::npos && dot > 0 && from_file_name) {  // "mm.x10y1z1.r1" -> app mm
    run->app = folder.substr(0, dot);
    run->derivations["app"] = "cube-set folder name <app>.<parameters>.r<repetition>";
  }
  run->problem_class = others;  // the other parameters' values keep other settings in other series
  run->derivations["problem_class"] = "cube-set folder name: the parameters other than " + selection.parameter;
  return true;
}

}  // namespace qnm
