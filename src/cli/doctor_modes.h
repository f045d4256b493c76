/* doctor_modes: the check doctor --store adds over this machine's calibration sessions. */
#ifndef CLEARPATH_CLI_DOCTOR_MODES_H
#define CLEARPATH_CLI_DOCTOR_MODES_H

#include "doctor/doctor.h"

/*
 * Append to @rep what the calibration sessions (clearpath calibrate) of SUT
 * class @sut in the store at @url say of this machine's boots: a "modes"
 * WARN per result class and calibration whose session levels fall into two
 * modes (stats_modes_statistic: a boot lands in a fast or a slow mode),
 * else one PASS; a WARN when the store holds no calibration of @sut, or none
 * with the 4 sessions it takes to tell.  Returns 0, or an exit code after
 * log_err() (no store at @url: EXIT_USAGE).
 */
int doctor_store_modes(const char *url, const char *sut, struct doctor_report *rep);

#endif
