import { MemoryProfileStorage } from './memory-profile-storage.ts';
import { profileStorageContract } from './profile-storage.contract.ts';

profileStorageContract('memory', async ({ now, ...retention }) => new MemoryProfileStorage(retention, now));
