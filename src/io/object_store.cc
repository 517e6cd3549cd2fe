#include "io/object_store.h"
