/* placeholder, replaced by the unit tests */
