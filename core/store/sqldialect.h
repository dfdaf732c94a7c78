// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/storelocation.h"

#include <QString>

namespace structscope {

/// The few places where SQLite and PostgreSQL SQL differ, so that one schema and one set of
/// queries serve both.
class SqlDialect
{
public:
    explicit SqlDialect(StoreBackend backend)
        : m_backend(backend)
    { }

    StoreBackend backend() const { return m_backend; }
    bool isSqlite() const { return m_backend == StoreBackend::Sqlite; }
    /// The Qt SQL driver name ("QSQLITE" or "QPSQL").
    QString driverName() const;

    /// Replaces the type placeholders {pk}, {bigint}, {double}, {blob} of a schema statement.
    QString expand(const QString& sql) const;

    /// Starts a transaction that writes. SQLite takes the write lock at once (BEGIN IMMEDIATE) so that
    /// two connections never both read, then race to upgrade; the loser would fail instead of waiting.
    QString beginWrite() const;

    /// One row with a count > 0 when the table named by the single bound value exists.
    QString tableExists() const;

    /// Lists the user tables of the store's database (or PostgreSQL schema), one name per row.
    QString listTables() const;

private:
    StoreBackend m_backend;
};

} // namespace structscope
