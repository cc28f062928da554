#!/bin/sh
# A sample SHELL task: AX runs it directly (no shell parses the arguments), with only the environment
# variables ax.shell.environment allows plus AX_TASK_NAME, AX_INSTANCE_ID, AX_ATTEMPT and AX_SCHEDULED_TIME.
# Its exit code decides the outcome; the first ax.shell.max-output bytes of stdout and stderr are recorded.
set -eu
echo "report for '$1' by $AX_TASK_NAME, instance $AX_INSTANCE_ID, attempt $AX_ATTEMPT, due $AX_SCHEDULED_TIME"
df -k . | tail -n 1
