// Reader-table row for CUBE4 profiles (.cubex): the record from
// cube_profile.h, identity from the Extra-P / Score-P folder name; under
// --parameter/--where the Extra-P cube-set folder name gives the process
// count and the other parameters (cube_set.h).
#include "cube/cube_profile.h"
#include "cube/cube_reader.h"
#include "cube/cube_set.h"
#include "reader/experiment_name.h"
#include "textio/text_lines.h"

namespace qnm {

bool SniffCubeProfile(const std::string& path, std::string_view text) {
  return EndsWith(ToLower(path), ".cubex") || LooksLikeCubeProfile(text);
}

ReaderOutput ReadCubeProfile(const ReaderInput& input) {
  RunStats run = ReadCubeRunStats(input.text, input.path);
  ApplyExperimentFolder(input.path, &run);
  ReaderOutput output;
  if (input.selection && !ApplyCubeSetSelection(input.path, *input.selection, &run)) return output;  // other --where values
  output.runs.push_back(std::move(run));
  return output;
}

}  // namespace qnm
