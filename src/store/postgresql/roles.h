/* roles: the PostgreSQL backend's lab roles (store_lab_setup()), apart from its connection and statements. */
#ifndef CLEARPATH_STORE_POSTGRESQL_ROLES_H
#define CLEARPATH_STORE_POSTGRESQL_ROLES_H

#include "store/db.h"

/* The backend's lab_roles() (backend.h): 0 or a logged store error. */
int store_pg_lab_roles(struct store *st, const struct store_roles *r, int phase);

#endif
