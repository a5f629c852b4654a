// Network validity and the station helpers every algorithm shares.
#include "mva/network.h"

#include <algorithm>
#include <cmath>

namespace qnm::mva {

const char* ToString(StationType type) {
  switch (type) {
    case StationType::kQueue: return "queue";
    case StationType::kDelay: return "delay";
    case StationType::kLoadDependent: return "load_dependent";
    case StationType::kMultiServer: return "multi_server";
  }
  return "unknown";
}

bool ParseStationType(const std::string& text, StationType* type) {
  if (text == "queue") *type = StationType::kQueue;
  else if (text == "delay") *type = StationType::kDelay;
  else if (text == "load_dependent") *type = StationType::kLoadDependent;
  else if (text == "multi_server" || text == "multiserver") *type = StationType::kMultiServer;
  else return false;
  return true;
}

double Station::RateMultiplier(long jobs) const {
  if (type == StationType::kMultiServer) return static_cast<double>(std::min<long>(jobs, servers));
  if (type == StationType::kLoadDependent && !rate_multipliers.empty()) {
    size_t index = static_cast<size_t>(std::max<long>(jobs, 1)) - 1;
    return rate_multipliers[std::min(index, rate_multipliers.size() - 1)];
  }
  return 1.0;
}

long Network::TotalPopulation() const {
  long total = 0;
  for (const CustomerClass& c : classes) total += c.population;
  return total;
}

namespace {

std::string StationLabel(const Network& network, size_t k) {
  return "station " + std::to_string(k) + " ('" + network.stations[k].name + "')";
}

std::string ClassLabel(const Network& network, size_t c) {
  return "class " + std::to_string(c) + " ('" + network.classes[c].name + "')";
}

bool Fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

}  // namespace

bool Network::IsValid(std::string* error) const {
  if (classes.empty()) return Fail(error, "the network has no customer classes");
  if (stations.empty()) return Fail(error, "the network has no stations");
  for (size_t c = 0; c < classes.size(); ++c) {
    if (classes[c].population < 0)
      return Fail(error, ClassLabel(*this, c) + ": population " +
                             std::to_string(classes[c].population) + " is negative");
    if (!std::isfinite(classes[c].think_time_s) || classes[c].think_time_s < 0)
      return Fail(error, ClassLabel(*this, c) + ": think time must be finite and >= 0");
  }
  for (size_t k = 0; k < stations.size(); ++k) {
    const Station& s = stations[k];
    if (s.demand_s.size() != classes.size())
      return Fail(error, StationLabel(*this, k) + ": has " + std::to_string(s.demand_s.size()) +
                             " demands for " + std::to_string(classes.size()) + " classes");
    for (size_t c = 0; c < classes.size(); ++c)
      if (!std::isfinite(s.demand_s[c]) || s.demand_s[c] < 0)
        return Fail(error, StationLabel(*this, k) + ": demand of " + ClassLabel(*this, c) +
                               " must be finite and >= 0");
    if (s.count < 1)
      return Fail(error, StationLabel(*this, k) + ": count " + std::to_string(s.count) +
                             " must be >= 1");
    if (s.type == StationType::kMultiServer && s.servers < 1)
      return Fail(error, StationLabel(*this, k) + ": a multi-server station needs servers >= 1");
    if (s.type == StationType::kLoadDependent) {
      if (s.rate_multipliers.empty())
        return Fail(error, StationLabel(*this, k) + ": load_dependent station has no rate multipliers");
      for (size_t j = 0; j < s.rate_multipliers.size(); ++j)
        if (!std::isfinite(s.rate_multipliers[j]) || s.rate_multipliers[j] <= 0)
          return Fail(error, StationLabel(*this, k) + ": rate multiplier alpha(" +
                                 std::to_string(j + 1) + ") must be finite and > 0");
    }
  }
  for (size_t c = 0; c < classes.size(); ++c) {
    if (classes[c].population == 0) continue;
    double total = classes[c].think_time_s;
    for (const Station& s : stations) total += s.demand_s[c];
    if (total <= 0)
      return Fail(error, ClassLabel(*this, c) +
                             ": has customers but zero total demand and think time (unbounded throughput)");
  }
  return true;
}

Network Network::Expanded() const {
  Network expanded;
  expanded.classes = classes;
  for (const Station& s : stations)
    for (long r = 0; r < s.count; ++r) {
      Station replica = s;
      replica.count = 1;
      if (s.count > 1) replica.name += "#" + std::to_string(r);
      expanded.stations.push_back(replica);
    }
  return expanded;
}

}  // namespace qnm::mva
