// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace structscope {

/// What went wrong in a store call; lets callers react without parsing messages.
enum class StoreErrorKind {
    InvalidLocation, ///< the location string is neither a file path nor a supported URL
    NotFound, ///< the file, or the requested record, does not exist
    NotAStore, ///< the file or database belongs to something else
    NewerSchema, ///< written by a newer StructScope; left untouched
    Corrupt, ///< the SQLite file fails its integrity check or cannot be read
    ReadOnly, ///< the store is open read-only (by request or because the file is not writable)
    Connection, ///< the database cannot be opened or reached
    InvalidArgument, ///< the caller passed a value the store refuses (e.g. a secret in run settings)
    Conflict, ///< an optimistic check failed (someone else wrote first)
    Database, ///< the database reported an error while executing a statement
    DiskFull, ///< a write found no space (disk, quota or file size limit); the write was rolled back
};

/// An error with its kind and a message a person can act on.
struct StoreError
{
    StoreErrorKind kind = StoreErrorKind::Database;
    QString message;
};

/// Either a value or a StoreError. Store calls never throw; they return this.
template <typename T> class [[nodiscard]] StoreResult
{
public:
    StoreResult(T value)
        : m_data(std::in_place_index<0>, std::move(value))
    { }
    StoreResult(StoreError error)
        : m_data(std::in_place_index<1>, std::move(error))
    { }

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }

    /// The value; only valid when ok().
    const T& value() const& { return std::get<0>(m_data); }
    T& value() & { return std::get<0>(m_data); }
    T&& value() && { return std::get<0>(std::move(m_data)); }
    const T* operator->() const { return &std::get<0>(m_data); }

    /// The error; only valid when !ok().
    const StoreError& error() const { return std::get<1>(m_data); }
    StoreErrorKind errorKind() const { return error().kind; }
    /// The error message, or an empty string when ok().
    QString errorMessage() const { return ok() ? QString() : error().message; }

private:
    std::variant<T, StoreError> m_data;
};

/// The result of a call that yields no value.
template <> class [[nodiscard]] StoreResult<void>
{
public:
    StoreResult() = default;
    StoreResult(StoreError error)
        : m_error(std::move(error))
    { }

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const StoreError& error() const { return *m_error; }
    StoreErrorKind errorKind() const { return m_error->kind; }
    QString errorMessage() const { return m_error ? m_error->message : QString(); }

private:
    std::optional<StoreError> m_error;
};

} // namespace structscope
