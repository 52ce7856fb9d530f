import { LocalProfileFeed } from './local-profile-feed.ts';
import { profileFeedContract } from './profile-feed.contract.ts';

profileFeedContract('local', async () => {
  const feed = new LocalProfileFeed();
  return { feed, record: async (s) => feed.publish(s), connected: () => false };
});
