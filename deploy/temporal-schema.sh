#!/bin/sh
# Temporal's two databases and their schemas, with Temporal's own SQL tool, as its auto-setup image did. One script
# for both places it runs: docker-compose.yml's `temporal-schema` service (temporalio/admin-tools, whose
# temporal-sql-tool is this server version's) and `npm run test:production-shape`, with the tool built from the same
# Go module (src/platform/dev-services/temporal-server.ts). The schemas are the ones embedded in the tool, so both
# apply exactly the files of that version. Safe to run again: existing databases are kept, and update-schema applies
# only the versions a database lacks.
set -eu
: "${POSTGRES_SEEDS:?the database host}"
: "${DB_PORT:=5432}"
: "${POSTGRES_USER:?the database user}"
: "${POSTGRES_PWD:?the database password}"
: "${SQL_TOOL:=temporal-sql-tool}"
# Read by the tool from its environment: never on a command line, where `ps` shows it.
export SQL_PASSWORD="${POSTGRES_PWD}"

sql() {
  database=$1
  shift
  "${SQL_TOOL}" --plugin postgres12_pgx --ep "${POSTGRES_SEEDS}" -p "${DB_PORT}" -u "${POSTGRES_USER}" \
    --db "${database}" "$@"
}

for schema in temporal visibility; do
  database=temporal
  [ "${schema}" = visibility ] && database=temporal_visibility
  sql "${database}" create-database
  sql "${database}" setup-schema -v 0.0
  sql "${database}" update-schema --schema-name "postgresql/v12/${schema}"
done
