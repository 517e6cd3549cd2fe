#include "http/http_types.h"
