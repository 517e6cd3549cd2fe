// `firn admin tasks`: the durable tasks of a catalog database (store/task_store.h,
// docs/tasks.md), newest first, one JSON object per line, as the management API shows them
// (catalog::TaskJson). Filters: --state, --kind, --realm, --limit (1..1000, default 100).
// Exit code 0 done, 1 failed, 2 bad arguments.
// Thread-safety: run once, from main.
#pragma once

#include <cstdint>
#include <string>

#include "app/bootstrap_command.h"

namespace firn::app {

struct TasksArgs {
  StoreFlags store;
  std::string state;  // '' = any
  std::string kind;
  std::string realm;
  int64_t limit = 100;
};
int RunAdminTasks(const TasksArgs& args);

}  // namespace firn::app
