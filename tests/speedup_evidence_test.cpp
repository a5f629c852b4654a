// The note on a series whose measured time does not fall with P (models/speedup_evidence.h).
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "models/speedup_evidence.h"

TEST_CASE("a series whose time does not fall with P is noted as weak scaling or past its limit",
          "[models][speedup]") {
  // Thicket's LULESH campaign (tests/data/caliper/thicket-mpi-scaling): 30^3 elements per rank.
  const std::string note = qnm::NoSpeedupNote({{27, 47.28}, {64, 55.16}, {125, 56.3}, {216, 42.89}, {343, 52.7}});
  CHECK(note.find("does not fall with P (47.28 s at P=27, 52.7 s at P=343)") != std::string::npos);
  CHECK(note.find("weak-scaling") != std::string::npos);
  // Strong scaling, even a poor one (half the time at 8x the processes): no note.
  CHECK(qnm::NoSpeedupNote({{1, 10.0}, {2, 6.0}, {4, 4.0}, {8, 5.0}}).empty());
  // At the limits: time down by 10% at 4x the processes is scaling; by less is not; 3.9x is too few.
  CHECK(qnm::NoSpeedupNote({{4, 10.0}, {16, 8.99}}).empty());
  CHECK_FALSE(qnm::NoSpeedupNote({{4, 10.0}, {16, 9.0}}).empty());
  CHECK(qnm::NoSpeedupNote({{10, 10.0}, {39, 12.0}}).empty());
  // Nothing to say from one point, or without a time.
  CHECK(qnm::NoSpeedupNote({{4, 10.0}}).empty());
  CHECK(qnm::NoSpeedupNote({{4, 0.0}, {64, 1.0}}).empty());
}
