#!/bin/sh
# Prisma's native schema engine cannot be downloaded here; migrations are applied by src/database/migrate.ts.
echo "native Prisma schema engine is not available on this machine (see docs/developing.md: Migrations)" >&2
exit 1
