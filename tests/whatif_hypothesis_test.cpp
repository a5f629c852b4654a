// Hypothesis parsing: SILAS-like config lines (Hermanns 2008, Table 4.1 and
// Listing 4.4), command-line spellings, and one-line errors with file:line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "trace/otf2_reader.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "whatif/whatif_hypothesis.h"
#include "whatif/whatif_simulation.h"

using namespace qnm::trace;
namespace fs = std::filesystem;

namespace {

std::string WriteConfig(const std::string& name, const std::string& text) {
  fs::path path = fs::temp_directory_path() / ("qnm_whatif_" + name + ".cfg");
  qnm::WriteFileAtomically(path.string(), text);
  return path.string();
}

std::string ErrorOf(const std::string& text) {
  std::string path = WriteConfig("bad", text);
  try {
    ReadHypothesisFile(path);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("whatif hypotheses: the SILAS example configuration", "[whatif]") {
  std::string path = WriteConfig("silas", R"(# Example configuration for SILAS
MODEL "Reenact"
  OPTION "idle overhead" 5e-06
BALANCE REGION "foo"
SCALE REGION "bar" 0.5
CUT MESSAGE SIZE == 0
scale computation 0.25   # keywords are case-insensitive
Scale MPI 2
cut message tag >= 100
)");
  std::vector<Hypothesis> h = ReadHypothesisFile(path);
  REQUIRE(h.size() == 6);
  CHECK(h[0].kind == HypothesisKind::kBalanceRegion);
  CHECK(h[0].region == "foo");
  CHECK(h[0].line == 4);
  CHECK(h[1].kind == HypothesisKind::kScaleRegion);
  CHECK(h[1].factor == 0.5);
  CHECK(h[2].kind == HypothesisKind::kCutMessages);
  CHECK(h[2].CutsMessage(0, 7));
  CHECK_FALSE(h[2].CutsMessage(1, 7));
  CHECK(h[3].kind == HypothesisKind::kScaleComputation);
  CHECK(h[3].factor == 0.25);
  CHECK(h[4].kind == HypothesisKind::kScaleMpi);
  CHECK(h[5].CutsMessage(8, 100));
  CHECK_FALSE(h[5].CutsMessage(8, 99));
  CHECK(h[1].Describe() == "scale region \"bar\" 0.5");
  CHECK(h[5].Describe() == "cut message tag >= 100");
}

TEST_CASE("whatif hypotheses: command-line spellings", "[whatif]") {
  Hypothesis scale = ScaleFromArg("MPI_Recv=0.75");
  CHECK(scale.region == "MPI_Recv");
  CHECK(scale.factor == 0.75);
  Hypothesis cut = CutFromArg("size>=1024");
  CHECK(cut.CutsMessage(1024, 0));
  CHECK_FALSE(cut.CutsMessage(1023, 0));
  CHECK(CutFromArg("tag != 3").CutsMessage(0, 4));
  CHECK(CutFromArg("size<16").CutsMessage(15, 0));
  CHECK_THROWS_WITH(ScaleFromArg("solve"), Catch::Contains("REGION=FACTOR"));
  CHECK_THROWS_WITH(ScaleFromArg("solve=-1"), Catch::Contains("number >= 0"));
  CHECK_THROWS_WITH(CutFromArg("bytes>3"), Catch::Contains("size, tag or region"));
  CHECK_THROWS_WITH(CutFromArg("size=>3"), Catch::Contains("unknown relation"));
  CHECK_THROWS_WITH(CutFromArg("size>=x"), Catch::Contains("unsigned integer"));
}

TEST_CASE("whatif hypotheses: bad config lines give file:line", "[whatif]") {
  std::string path = (fs::temp_directory_path() / "qnm_whatif_bad.cfg").string();
  CHECK(ErrorOf("# fine\nBALANCE \"foo\"\n") ==
        path + ":2: expected BALANCE REGION \"name\" [OPTION \"mode\" \"m\"]");
  CHECK(ErrorOf("SCALE REGION \"bar\" fast\n") ==
        path + ":1: scale factor must be a number >= 0, not 'fast'");
  CHECK(ErrorOf("\n\nCUT MESSAGE SIZE ~ 3\n") ==
        path + ":3: unknown relation '~' (use == != < <= > >=)");
  CHECK(ErrorOf("SPEEDUP REGION \"x\"\n") ==
        path + ":1: unknown hypothesis 'SPEEDUP' (BALANCE, SCALE, CUT)");
  CHECK(ErrorOf("CUT REGION\n") == path + ":1: expected CUT REGION \"name\"");
  CHECK(ErrorOf("BALANCE REGION \"unterminated\n") == path + ":1: unterminated quoted name");
  CHECK(ErrorOf("MODEL \"Dimemas\"\n") == path + ":1: only MODEL \"Reenact\" is supported");
  CHECK_THROWS_WITH(ReadHypothesisFile("/nonexistent/whatif.cfg"),
                    Catch::StartsWith("/nonexistent/whatif.cfg"));
}

TEST_CASE("whatif hypotheses: an unknown region names the config line", "[whatif]") {
  std::string path = WriteConfig("unknown", "\nSCALE REGION \"no_such_region\" 0.5\n");
  WhatifOptions options;
  options.hypotheses = ReadHypothesisFile(path);
  Trace trace = ReadOtf2Trace(std::string(QNM_TEST_DATA_DIR) + "/otf2/synthetic-patterns-4rank");
  CHECK_THROWS_WITH(SimulateWhatif(trace, options),
                    Catch::StartsWith(path + ":2: scale region \"no_such_region\" 0.5: no region "
                                             "named \"no_such_region\""));
}
