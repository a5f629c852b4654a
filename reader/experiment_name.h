#pragma once
// What the folder of a profile says about its run. Extra-P names the folders
// of a cube set "<app>.p<procs>.<other parameters>.r<repetition>"
// (blast.p64.r1/profile.cubex, fastest.p16.size131072.r1/profile.cubex);
// Score-P names its experiments "scorep-<date>_<time>_<id>".
#include <string>

#include "record/run_stats.h"

namespace qnm {

struct ExperimentName {
  std::string app;         // Extra-P prefix ("fastest"), empty for Score-P folders
  std::string parameters;  // the other parameters, '.'-joined ("size131072"), or empty
  int procs = 0;           // p<procs>, 0 when absent
  int repetition = -1;     // r<repetition>, -1 when absent
  bool scorep = false;     // a scorep-* experiment folder
};

/// Parses one folder name; false when it follows neither convention.
bool ParseExperimentName(const std::string& folder, ExperimentName* name);

/// Identity of a profile's record from its folder: app and parameters from an
/// Extra-P cube-set name (the parameters become the problem class, so runs at
/// other parameter values form other series). The folders above name no
/// machine (reader/series_identity.h: `--group-by folder` groups by them on request).
void ApplyExperimentFolder(const std::string& path, RunStats* run);

}  // namespace qnm
