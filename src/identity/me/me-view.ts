import { type Permission, type Principal, ROLE_PERMISSIONS } from '../principal';

/** The caller and what its role may do (the console hides the rest): `GET /api/me` and GraphQL `me`. */
export interface MeView extends Principal {
  may: Permission[];
}

export function meOf(principal: Principal): MeView {
  return { ...principal, may: [...ROLE_PERMISSIONS[principal.role]] };
}
