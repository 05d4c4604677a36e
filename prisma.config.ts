import { defineConfig } from 'prisma/config';

// Only `prisma generate` runs here; migrations are applied by the service itself at start-up.
export default defineConfig({
  schema: 'prisma/schema',
  migrations: { path: 'prisma/migrations' },
});
