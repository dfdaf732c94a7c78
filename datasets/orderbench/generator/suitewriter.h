// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace structscope::orderbench {

/// The seed of every random choice of the suite. Changing it changes every case.
constexpr std::uint64_t kSeed = 0x0DE5B7C4A11E2024ull;

/// Cases per category.
constexpr int kCasesPerCategory = 30;

/// Every generated file of the suite (path relative to datasets/orderbench → exact bytes):
/// suite.json, catalog.json, schemas/order.json, cases.jsonl. Throws std::logic_error when a
/// template produces a case whose oracle answer contradicts its category (a generator bug).
std::map<std::string, std::string> generateSuiteFiles();

/// Writes generateSuiteFiles() under `dir` (created, with schemas/). Returns "" or an error message.
std::string writeSuiteFiles(const std::string& dir);

} // namespace structscope::orderbench
