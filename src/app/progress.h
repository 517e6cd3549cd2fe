// Progress of a long admin command (recover, verify, replicate, drill, backup): on a terminal,
// one line on stderr redrawn in place at most ten times a second ("recover: 120/800 tables
// (15%) 2.1 s …"); off a terminal nothing, because the command prints JSON for scripts there.
// Thread-safety: Update may be called from any thread (serialised inside).
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

namespace firn::app {

class Progress {
 public:
  // `enabled`: draw at all (StderrIsTerminal() by default).
  explicit Progress(std::string label, bool enabled = StderrIsTerminal());
  ~Progress();  // Finish()

  // `total` 0: not known; the line shows the count without a bar.
  void Update(size_t done, size_t total, std::string_view unit, std::string_view note = {});
  // Ends the line (a final draw with the last figures).
  void Finish();

  static bool StderrIsTerminal();

 private:
  void Draw(bool final);

  const std::string label_;
  const bool enabled_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mu_;
  std::chrono::steady_clock::time_point last_draw_{};
  size_t done_ = 0;
  size_t total_ = 0;
  std::string unit_;
  std::string note_;
  bool finished_ = false;
};

}  // namespace firn::app
