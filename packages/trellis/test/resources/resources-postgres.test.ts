import { postgresForTests } from '../../src/testing/services.ts';
import { resourceSuite } from './resource-suite.ts';
import { paginationSuite } from './pagination-suite.ts';
import { postgresBackend } from './fixtures.ts';

const pg = await postgresForTests();
resourceSuite(postgresBackend, pg.skip);
paginationSuite(postgresBackend, pg.skip);
