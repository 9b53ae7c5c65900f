#!/bin/sh
# Once the Temporal frontend answers: the namespace `default` and the operators' search attributes (the list of
# src/platform/temporal/search-attributes.ts, all Keyword), with the Temporal CLI. One script for both places it
# runs: docker-compose.yml's `temporal-search-attributes` service (temporalio/admin-tools) and
# `npm run test:production-shape` (src/platform/dev-services/temporal-server.ts). Safe to run again.
set -eu
: "${TEMPORAL_ADDRESS:?the frontend, host:port}"
: "${TEMPORAL_CLI:=temporal}"
NAMESPACE=default
ATTRIBUTES="UserId ApiType Chain RiskLevel JobStatus Provider EventType CaseState CaseSeverity"

cli() {
  "${TEMPORAL_CLI}" "$@" --address "${TEMPORAL_ADDRESS}"
}

# Runs its arguments until they succeed, once a second for up to 2 minutes; then once more, showing why it fails.
retry() {
  tries=120
  while [ "${tries}" -gt 0 ] && ! "$@" >/dev/null 2>&1; do
    tries=$((tries - 1))
    sleep 1
  done
  "$@" >/dev/null
}

retry cli operator cluster health
if ! cli operator namespace describe --namespace "${NAMESPACE}" >/dev/null 2>&1; then
  # A day of closed workflows kept, as the auto-setup image this replaced registered it.
  cli operator namespace create --namespace "${NAMESPACE}" --retention 24h
fi
# The frontend knows a new namespace once its namespace cache refreshes (every 2 s by default).
retry cli operator search-attribute list --namespace "${NAMESPACE}"
existing=$(cli operator search-attribute list --namespace "${NAMESPACE}" | awk '{ print $1 }')
for name in ${ATTRIBUTES}; do
  printf '%s\n' "${existing}" | grep -qx "${name}" && continue
  cli operator search-attribute create --namespace "${NAMESPACE}" --name "${name}" --type Keyword
done
