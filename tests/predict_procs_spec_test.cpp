#include <catch2/catch.hpp>

#include "models/procs_spec.h"
#include "util/input_error.h"

using qnm::ParseProcsSpec;

TEST_CASE("procs specs: ranges, strides and lists", "[predict][procs]") {
  CHECK(ParseProcsSpec("1..4") == std::vector<int>{1, 2, 3, 4});
  CHECK(ParseProcsSpec("1..1024:x2").size() == 11);
  CHECK(ParseProcsSpec("1..1024:x2").back() == 1024);
  CHECK(ParseProcsSpec("3..100:x3") == std::vector<int>{3, 9, 27, 81});
  CHECK(ParseProcsSpec("4..20:+8") == std::vector<int>{4, 12, 20});
  CHECK(ParseProcsSpec("8,1, 2,4,2") == std::vector<int>{1, 2, 4, 8});
  CHECK(ParseProcsSpec("1..2,64,16..32:x2") == std::vector<int>{1, 2, 16, 32, 64});
  CHECK(ParseProcsSpec("1..1024").size() == 1024);
  CHECK(ParseProcsSpec("7") == std::vector<int>{7});
}

TEST_CASE("procs specs: bad input is a one-line error naming the option", "[predict][procs]") {
  for (const char* bad : {"", "0", "0..4", "4..1", "1..8:x1", "1..8:y2", "a..b", "1,,2", "1..",
                          "-3", "1.5", "1..99999999", "2..3:+0", "1..8:x"}) {
    INFO(bad);
    CHECK_THROWS_AS(ParseProcsSpec(bad, "--train"), qnm::InputError);
  }
  try {
    ParseProcsSpec("4..1", "--train");
    FAIL("no error");
  } catch (const qnm::InputError& e) {
    CHECK(std::string(e.what()).find("--train") == 0);
    CHECK(std::string(e.what()).find("4..1") != std::string::npos);
  }
}
