// What launchers print of a failed job (launch_failure.h).
#include "launch/launch_failure.h"

namespace qnm {

std::string_view LaunchFailureMark(std::string_view line) {
  static constexpr std::string_view kMarks[] = {
      "Primary job  terminated normally, but",  // Open MPI 4 (two blanks), before "a non-zero exit code"
      "Primary job terminated normally, but",
      "exited on signal",
      "MPI_ABORT was invoked",
      "mpirun was unable to launch",
      "mpirun has exited due to process rank",
      "*** Process received signal ***",
      "BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES",
      "application called MPI_Abort",
      "srun: error:",
      "slurmstepd: error: ***",
      "DUE TO TIME LIMIT",
      "flux-job: task(s) exited with exit code",
  };
  for (std::string_view mark : kMarks)
    if (line.find(mark) != std::string_view::npos) return mark;
  return {};
}

}  // namespace qnm
