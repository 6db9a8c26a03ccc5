import { type Permission, type Principal, ROLE_PERMISSIONS } from '../principal';

/** The caller and what its role may do (the console hides the rest): `GET /api/me` and GraphQL `me`. */
export interface MeView extends Omit<Principal, 'credential'> {
  may: Permission[];
}

export function meOf(principal: Principal): MeView {
  const { kind, id, name, role, via } = principal;
  return { kind, id, name, role, via, may: [...ROLE_PERMISSIONS[role]] };
}
