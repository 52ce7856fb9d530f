import { AuthenticatedVoter } from './authenticated-voter.ts';
import { RoleHierarchy } from './role-hierarchy.ts';
import { RoleVoter } from './role-voter.ts';
import { voterContract } from './voter.contract.ts';

voterContract(new RoleVoter(new RoleHierarchy({ ROLE_ADMIN: ['ROLE_USER'] })), ['ROLE_USER', 'ROLE_ADMIN', 'ROLE_UNKNOWN']);
voterContract(new AuthenticatedVoter(), ['PUBLIC_ACCESS', 'IS_AUTHENTICATED', 'IS_AUTHENTICATED_FULLY', 'IS_ANONYMOUS']);
