#pragma once
// The CUBE4 reader's entry points in ingest's table of readers (ingest/reader_table.cpp), in the
// contract of reader/reader.h: a .cubex profile, or a folder of them read as an Extra-P cube set
// (cube_reader.cpp).
#include <string>
#include <string_view>

#include "reader/reader.h"

namespace qnm {

bool SniffCubeProfile(const std::string& path, std::string_view text);
ReaderOutput ReadCubeProfile(const ReaderInput& input);

}  // namespace qnm
