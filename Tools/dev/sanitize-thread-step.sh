#!/usr/bin/env bash
# CI's ThreadSanitizer step (and Tools/dev/flakiness.sh's): the whole suite under ThreadSanitizer but for these.
# Three suites stay out of the sanitizer run: ServerFaultTests holds 1,000 connections and a slow-loris client against
# a time limit (a load test, not a race finder), URLSessionTransportTests needs FoundationNetworking's shared transfer
# thread unstarved (test.sh runs both on their own), and the event-stream contract compares arrival times with
# recorded ones (a floor of 80%), which the sanitizer's slowdown while recording skews. All three run in test.sh.
# DeterminismTests stays out too: it replays in child processes under libfaketime, and a ThreadSanitizer-built binary
# under libfaketime hangs before main (both interpose clock_gettime; seen 2026-11-25). So do the two tests that keep
# both cores busy with child processes for minutes when those are sanitizer-built: the CLI mutation sweep (two
# `tapedeck` runs at a time) and the killed-recorder test (a child recording flat out). With them, the timing tests
# beside them starved (a namespace's link changes, TLS connection reuse, multipart uploads cut by the server's
# connection timeout). All three run in test.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec bash Tools/dev/sanitize.sh thread --skip ServerFaultTests --skip URLSessionTransportTests \
    --skip theSameEventsAndTheSameTimeoutOverEveryTransport --skip DeterminismTests \
    --skip CLIMutationSweepTests --skip killedRecorderLeavesAValidCassette "$@"
