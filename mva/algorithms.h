#pragma once
// The individual MVA algorithms behind Solve(). Each one receives a valid network
// and a Result already sized ([station][class], NaN Ubusy) and fills X, Q, Rk,
// Ubusy (load-dependent stations) and the summary's iterations/convergence.
// Solve() derives U and R from them. Replicated stations report one replica.
//
// Classes with zero population get X = 0, Q = 0 and the residence times a single
// arriving customer of that class would see (arrival theorem), as Octave does.
#include <string>
#include <vector>

#include "mva/network.h"
#include "mva/solver.h"
#include "mva/workspace.h"

namespace qnm::mva {

/// Exact single-class MVA for queue and delay stations (QSP §6.3); O(N x stations).
void SolveExactSingleClass(const Network& network, Workspace* workspace, Result* result);

/// Exact single-class MVA with load-dependent / multi-server stations, in a form
/// that stays stable at large N (see load_dependent.cpp); O(N^2 x LD stations^2).
void SolveExactSingleClassLoadDependent(const Network& network, Result* result);

/// Exact multi-class MVA over the population lattice (QSP §7.3; Reiser-Lavenberg
/// marginal recursion for load-dependent stations). False + error if refused.
bool SolveExactMultiClass(const Network& network, const Options& options, Workspace* workspace,
                          Result* result, std::string* error);

/// Exact multi-class MVA for networks without load-dependent demand (queues and
/// delays), vectorised over stations and neighbouring lattice rows
/// (queue_lattice.cpp). Allocates nothing once `workspace` has grown.
void SolveExactMultiClassQueues(const Network& network, Workspace* workspace, Result* result);

/// Schweitzer-Bard approximate MVA (QSP §7.4.2.2). False + error if refused.
bool SolveSchweitzer(const Network& network, const Options& options, Result* result,
                     std::string* error);

/// Chandy-Neuse Linearizer (QSP §7.4.2.3 / Chandy & Neuse 1982). False + error if refused.
bool SolveLinearizer(const Network& network, const Options& options, Result* result,
                     std::string* error);

/// Number of points prod_c (N_c + 1) of the population lattice (as a double: may be huge).
double LatticePoints(const Network& network);

/// True when a station is load-dependent (or multi-server) and has some demand.
bool HasLoadDependence(const Station& station);

}  // namespace qnm::mva
