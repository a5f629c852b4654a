#pragma once
// Whether a fitted model says something: one of its notes contains a text.
#include <algorithm>
#include <string>

#include "models/prediction.h"

namespace qnm::testing {

inline bool HasNoteContaining(const SeriesModel& model, const std::string& text) {
  return std::any_of(model.summary.notes.begin(), model.summary.notes.end(),
                     [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

}  // namespace qnm::testing
