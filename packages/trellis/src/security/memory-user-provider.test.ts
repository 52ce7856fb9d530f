import { MemoryUserProvider } from './memory-user-provider.ts';
import { FIXTURE_USERS, userProviderContract } from './user-provider.contract.ts';

userProviderContract('memory', async () => new MemoryUserProvider(FIXTURE_USERS));
