#pragma once
// Machine names from host names: the nodes of one cluster share a stem and
// differ in a node number ("cab36", "cab1281" -> "cab"; "graphene-12" ->
// "graphene"; "nid00012.cluster.org" -> "nid"; "zarate-0b.cnca" -> "zarate"). Used to name the machine a run
// was measured on from what the run's files say (mpiP MPI Task Assignment, an
// `info` file's uname line, SLURM/HOSTNAME lines) instead of from file names.
#include <string>
#include <vector>

namespace qnm {

/// The host's stem: lower case, domain dropped, trailing node number and the
/// separators before it dropped, and a short node id with digits after a
/// separator ("zarate-4d" -> "zarate"). A name without a node number is
/// returned whole ("login" -> "login"); empty for an empty or all-digit name.
std::string HostStem(const std::string& host);

/// The machine several hosts belong to: their shared stem; when the stems
/// differ, their longest common prefix (3 characters or more) or else the
/// distinct stems joined by '+'. Empty when `hosts` is empty.
std::string MachineFromHosts(const std::vector<std::string>& hosts);

/// The stem of every HPE Cray EX node named by its place, x<cabinet>c<chassis>s<slot>b<board>n<node>
/// ("x4013c2s1b0n0"): the numbers say where in the machine, not which machine.
inline constexpr char kCrayExNodeStem[] = "xname";

/// A stem that names a node, not a machine: HPE Cray systems call every compute node nid#####
/// (ARCHER, ARCHER2, LUMI, Perlmutter, Isambard alike), and "node", "compute" and "cn" are as
/// generic, as is an HPE Cray EX place name (kCrayExNodeStem). Runs on two such machines share the stem;
/// the processor tells them apart.
bool IsGenericNodeStem(const std::string& stem);

/// A processor's brand string cut to its model: "Intel(R) Xeon(R) CPU E5-2697 v2 @ 2.70GHz" ->
/// "Xeon E5-2697 v2", "AMD EPYC 7742 64-Core Processor" -> "EPYC 7742". Empty when the brand
/// names no model ("Unknown CPU brand", blank).
std::string CpuModelName(const std::string& brand);

/// Expands a SLURM node list "cab[183,194-196]" -> cab183 cab194 cab195 cab196;
/// a plain "a,b" list splits at commas. At most `limit` names.
std::vector<std::string> ExpandNodeList(const std::string& node_list, std::size_t limit = 100000);

/// Up to `limit` distinct hosts joined by ' ' with "... (N hosts)" when cut.
std::string DescribeHosts(const std::vector<std::string>& hosts, std::size_t limit = 4);

}  // namespace qnm
