/* commands: the subcommands main() dispatches to; each lives in its own src/cli file. */
#ifndef CLEARPATH_CLI_COMMANDS_H
#define CLEARPATH_CLI_COMMANDS_H

/*
 * Return conventions of src/cli (CONTRIBUTING.md has every layer's): a
 * command returns an exit code (enum exit_code, util/log.h), after log_err()
 * unless it is EXIT_OK.  A step of one (parsing, loading) returns 0 to go
 * on, or the exit code to stop with; a parser that printed --help returns
 * CLI_HELP_SHOWN, which is no exit code, and the command then exits 0.
 */
#define CLI_HELP_SHOWN 256

/* Each takes the arguments after its own name and returns an exit code. */
int cmd_bench(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_plan(int argc, char **argv);

/* `plan run`, called by cmd_plan with the arguments after "run". */
int plan_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_remote(int argc, char **argv);
int cmd_campaign(int argc, char **argv);
int cmd_store(int argc, char **argv);

#endif
