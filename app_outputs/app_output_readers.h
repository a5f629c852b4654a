#pragma once
// The readers of applications' own outputs (NPB, LAMMPS, GROMACS, VASP, CP2K, ...): the sniff and read functions
// ingest's table of readers (ingest/reader_table.cpp) offers each file to, in
// the contract of reader/reader.h. Each is defined in the file its comment names.
#include <string>
#include <string_view>

#include "reader/reader.h"

namespace qnm {

bool SniffLammpsLog(const std::string& path, std::string_view text);  // lammps_log.cpp
ReaderOutput ReadLammpsLog(const ReaderInput& input);
bool SniffVaspOutcar(const std::string& path, std::string_view text);  // vasp_outcar.cpp
ReaderOutput ReadVaspOutcar(const ReaderInput& input);
bool SniffCastepOutput(const std::string& path, std::string_view text);  // castep_output.cpp
ReaderOutput ReadCastepOutput(const ReaderInput& input);
bool SniffOnetepOutput(const std::string& path, std::string_view text);  // onetep_output.cpp
ReaderOutput ReadOnetepOutput(const ReaderInput& input);
bool SniffGromacsLog(const std::string& path, std::string_view text);  // gromacs_log.cpp
ReaderOutput ReadGromacsLog(const ReaderInput& input);
bool SniffOpenfoamLog(const std::string& path, std::string_view text);  // openfoam_log.cpp
ReaderOutput ReadOpenfoamLog(const ReaderInput& input);
bool SniffCp2kOutput(const std::string& path, std::string_view text);  // cp2k_output.cpp
ReaderOutput ReadCp2kOutput(const ReaderInput& input);
bool SniffPetscLog(const std::string& path, std::string_view text);  // petsc_log.cpp
ReaderOutput ReadPetscLog(const ReaderInput& input);
bool SniffQeOutput(const std::string& path, std::string_view text);  // qe_output.cpp
ReaderOutput ReadQeOutput(const ReaderInput& input);
bool SniffLuleshOutput(const std::string& path, std::string_view text);  // lulesh_output.cpp
ReaderOutput ReadLuleshOutput(const ReaderInput& input);
bool SniffComdOutput(const std::string& path, std::string_view text);  // comd_output.cpp
ReaderOutput ReadComdOutput(const ReaderInput& input);
bool SniffMinifeOutput(const std::string& path, std::string_view text);  // minife_output.cpp
ReaderOutput ReadMinifeOutput(const ReaderInput& input);
bool SniffKripkeOutput(const std::string& path, std::string_view text);  // kripke_output.cpp
ReaderOutput ReadKripkeOutput(const ReaderInput& input);
bool SniffLaghosOutput(const std::string& path, std::string_view text);  // laghos_output.cpp
ReaderOutput ReadLaghosOutput(const ReaderInput& input);
bool SniffQuicksilverOutput(const std::string& path, std::string_view text);  // quicksilver_output.cpp
ReaderOutput ReadQuicksilverOutput(const ReaderInput& input);
bool SniffHplOutput(const std::string& path, std::string_view text);  // hpl_output.cpp
ReaderOutput ReadHplOutput(const ReaderInput& input);
bool SniffAmgOutput(const std::string& path, std::string_view text);  // amg_output.cpp
ReaderOutput ReadAmgOutput(const ReaderInput& input);
bool SniffLeafOutput(const std::string& path, std::string_view text);  // cloverleaf_output.cpp
ReaderOutput ReadLeafOutput(const ReaderInput& input);
bool SniffNamdLog(const std::string& path, std::string_view text);  // namd_log.cpp
ReaderOutput ReadNamdLog(const ReaderInput& input);
bool SniffAbinitOutput(const std::string& path, std::string_view text);  // abinit_output.cpp
ReaderOutput ReadAbinitOutput(const ReaderInput& input);
bool SniffAmberMdout(const std::string& path, std::string_view text);  // amber_mdout.cpp
ReaderOutput ReadAmberMdout(const ReaderInput& input);
bool SniffWrfRsl(const std::string& path, std::string_view text);  // wrf_rsl.cpp
ReaderOutput ReadWrfRsl(const ReaderInput& input);
bool SniffNwchemOutput(const std::string& path, std::string_view text);  // nwchem_output.cpp
ReaderOutput ReadNwchemOutput(const ReaderInput& input);
bool SniffHpcgOutput(const std::string& path, std::string_view text);  // hpcg_output.cpp
ReaderOutput ReadHpcgOutput(const ReaderInput& input);
bool SniffCimeTiming(const std::string& path, std::string_view text);  // cime_timing.cpp
ReaderOutput ReadCimeTiming(const ReaderInput& input);
bool SniffAmrexOutput(const std::string& path, std::string_view text);  // amrex_output.cpp
ReaderOutput ReadAmrexOutput(const ReaderInput& input);
bool SniffNaluLog(const std::string& path, std::string_view text);  // nalu_log.cpp
ReaderOutput ReadNaluLog(const ReaderInput& input);
bool SniffFmsClocks(const std::string& path, std::string_view text);  // fms_clocks.cpp
ReaderOutput ReadFmsClocks(const ReaderInput& input);
bool SniffEsmfProfileSummary(const std::string& path, std::string_view text);  // esmf_profile.cpp
ReaderOutput ReadEsmfProfileSummary(const ReaderInput& input);
bool SniffUmTimers(const std::string& path, std::string_view text);  // um_timers.cpp
ReaderOutput ReadUmTimers(const ReaderInput& input);

}  // namespace qnm
