// The terminal table of `predict` keeps its columns (issue 22): a value with
// its interval ("2.059e-05 [1.965e-05, 2.158e-05]") was wider than the fixed
// column and shifted every column after "switch delay".
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "command_runner.h"

TEST_CASE("predict table: every value starts under its column's header", "[predict][table]") {
  std::string out;
  REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " predict --procs 1..1024:x2 2>/dev/null", &out) == 0);
  std::istringstream lines(out);
  std::string line, header;
  std::vector<std::string> rows;
  while (std::getline(lines, line)) {
    if (line.rfind("P ", 0) == 0) header = line;
    else if (!header.empty() && !line.empty() && std::isdigit(static_cast<unsigned char>(line[0]))) rows.push_back(line);
  }
  REQUIRE_FALSE(header.empty());
  REQUIRE(rows.size() == 11);  // P = 1, 2, 4, ..., 1024
  // P = 512 and 1024 exceed BT-MZ class C's 256 zones: one message across the row, no columns.
  for (int k : {9, 10}) CHECK(rows[k].find("impossible: P=") != std::string::npos);
  rows.resize(9);
  for (const char* column : {"total s", "compute W s", "switch delay S s", "MPI service A s", "contention C s"}) {
    INFO(column);
    const std::size_t at = header.find(column);
    REQUIRE(at != std::string::npos);
    for (const std::string& row : rows) {
      INFO(row);
      REQUIRE(row.size() > at);
      CHECK(row[at - 1] == ' ');
      CHECK(std::isdigit(static_cast<unsigned char>(row[at])));
    }
  }
  // The widest cell of the bundled series (a value in e-05 with its interval) is in it.
  CHECK(out.find("e-05 [") != std::string::npos);
}
