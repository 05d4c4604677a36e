import { Global, Module } from '@nestjs/common';
import { CONFIG, type Config } from '../config/config.js';
import { DatabaseService } from './database.service.js';

@Global()
@Module({
  providers: [
    {
      provide: DatabaseService,
      // Connect (and migrate) before anything that needs the database is built.
      useFactory: async (config: Config) => {
        const service = new DatabaseService(config);
        await service.connect();
        return service;
      },
      inject: [CONFIG],
    },
  ],
  exports: [DatabaseService],
})
export class DatabaseModule {}
