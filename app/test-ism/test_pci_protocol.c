/* placeholder */
#include "test_ism.h"
static const struct test_case cases[] = { { NULL, NULL } };
const struct test_suite suite_pci_protocol = { "pci_protocol", cases, 1 };
