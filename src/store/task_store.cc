#include "store/task_store.h"

namespace firn::store {

std::string_view TaskStateName(TaskState state) {
  switch (state) {
    case TaskState::kPending: return "pending";
    case TaskState::kRunning: return "running";
    case TaskState::kDone: return "done";
    case TaskState::kFailed: return "failed";
  }
  return "failed";
}

std::optional<TaskState> TaskStateFromName(std::string_view name) {
  for (TaskState s : {TaskState::kPending, TaskState::kRunning, TaskState::kDone,
                      TaskState::kFailed}) {
    if (TaskStateName(s) == name) return s;
  }
  return std::nullopt;
}

}  // namespace firn::store
