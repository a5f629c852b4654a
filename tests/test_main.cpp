// The Catch2 (v2) runner for every *_test.cpp in this folder.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
