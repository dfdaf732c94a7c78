// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

namespace structscope {

/// The smallest value that a JSON Schema (draft-07 subset: type, enum, const, required, properties,
/// items, minItems, minimum, minLength, anyOf/oneOf/allOf, local $ref) accepts, as far as such a
/// walk can tell: required properties only, empty strings, zeros, empty arrays. `{}` for a schema it
/// cannot read. serve-sim answers unknown prompts with it.
nlohmann::json minimalInstance(const nlohmann::json& schema);

} // namespace structscope
