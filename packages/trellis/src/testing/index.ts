export { postgresForTests, redisForTests, reachable, TEST_POSTGRES_URL, TEST_REDIS_URL } from './services.ts';
export { testConfig } from './test-config.ts';
export { openTestSchema, type TestDatabase } from './test-schema.ts';
export { browserSkipReason, launchBrowser, ARTIFACTS_DIR, CHROMIUM_PATH } from './browser.ts';
export { tcpProxy, type TcpProxy } from './tcp-proxy.ts';
