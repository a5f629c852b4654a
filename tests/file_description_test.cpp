// ingest/file_description.h: what `ingest --show` prints before a file's records.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "ingest/file_description.h"
#include "tests/temp_dir.h"
#include "util/input_error.h"

namespace {

const std::string kData = QNM_TEST_DATA_DIR;

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("file description: mpiP report, NPB output and Paraver header", "[ingest][show]") {
  const std::string mpip = qnm::DescribeFile(kData + "/mpip/nunatak__mpi_workload.4.2586003.1.mpiP");
  CHECK(Contains(mpip, "Collector PID: 2586003"));
  CHECK(Contains(mpip, "0x79d9e602208c [unknown] -> Send"));

  const std::string npb = qnm::DescribeFile(kData + "/npb/llnl-cab_bt-mz.C.np1.th12.omp.out");
  CHECK(Contains(npb, "banner at line 38: BT-MZ"));
  CHECK(Contains(npb, "header threads: 12"));

  // Compressed: the header is read from the unpacked head.
  const std::string prv = qnm::DescribeFile(kData + "/paraver/epoch/epoch_16proc.prv.gz");
  CHECK(Contains(prv, "written: 09/10/2019 at 16:10"));
  CHECK(Contains(prv, "end time: 2339560724 ns"));
  CHECK(Contains(prv, "application 1: 16 task(s), 16 thread(s)"));
}

TEST_CASE("file description: other formats say nothing, damaged ones name their file", "[ingest][show]") {
  qnm::testing::TempDir dir("qnm", "file-description");
  const std::string table = (dir.path / "runs.csv").string();
  std::ofstream(table) << "procs,time_s\n1,10\n2,5.5\n";
  CHECK(qnm::DescribeFile(table).empty());

  // An mpiP header with no sections after it: recognised, then refused with the file's name.
  const std::string mpip = (dir.path / "cut.mpiP").string();
  std::ofstream(mpip) << "@ mpiP\n@ Command : ./a.out\n";
  try {
    qnm::DescribeFile(mpip);
    FAIL("a cut mpiP report was described");
  } catch (const qnm::InputError& e) {
    CHECK(Contains(e.what(), "cut.mpiP"));
  }

  CHECK_THROWS(qnm::DescribeFile((dir.path / "missing.mpiP").string()));
}
