#include "app/admin_tasks.h"

#include <boost/json.hpp>

#include <iostream>

#include "app/store_factory.h"
#include "catalog/task_runner.h"

namespace firn::app {

namespace json = boost::json;

int RunAdminTasks(const TasksArgs& args) {
  auto fail = [](const Error& e, int code = 1) {
    std::cerr << "firn: " << e.message << "\n";
    return code;
  };
  store::TaskFilter filter;
  if (!args.state.empty()) {
    filter.state = store::TaskStateFromName(args.state);
    if (!filter.state) {
      return fail(Error(ErrorKind::kIllegalArgument,
                        "--state must be pending, running, done or failed"),
                  2);
    }
  }
  if (args.limit < 1 || args.limit > 1000) {
    return fail(Error(ErrorKind::kIllegalArgument, "--limit must be between 1 and 1000"), 2);
  }
  filter.kind = args.kind;
  filter.realm = args.realm;
  filter.limit = args.limit;
  auto config = ConfigFromFlags(args.store);
  if (!config) return fail(config.error(), 2);
  auto store = OpenStoreByUrl(config->db_url, config->db_password);
  if (!store) return fail(store.error());
  auto tasks = (*store)->ListTasks(filter);
  if (!tasks) return fail(tasks.error());
  for (const store::Task& t : *tasks) {
    std::cout << json::serialize(catalog::TaskJson(t)) << "\n";
  }
  return 0;
}

}  // namespace firn::app
