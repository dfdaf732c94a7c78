// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "net/connectiontest.h"
#include "providers/modelspec.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace structscope {

/// Edits one provider profile: kind (OpenAI-compatible, Ollama, simulated), model name, base URL, the
/// *name* of the environment variable holding the API key (never the key: only whether it is set is
/// shown) and spec options. "Test Connection" sends one small request to it (simulated models need none);
/// "Add to List" hands the profile to whoever keeps the list. The model-spec parser judges every profile.
class ModelProfileEditor : public QWidget
{
    Q_OBJECT
public:
    explicit ModelProfileEditor(QWidget* parent = nullptr);

    void setProfile(const ModelSpec& spec);
    /// The profile in the fields, validated by parseModelSpec; nullopt with why.
    std::optional<ModelSpec> profile(QString* error = nullptr) const;

    void testConnection();
    bool isTesting() const;
    /// Whether the test may send a key over plain http to a host that is not loopback.
    void setAllowInsecureKey(bool allow);
    /// The last test's outcome ("✔ Connected: …", "✘ Failed (HTTP 401, http_4xx): …"), or a message.
    QString connectionText() const;
    void setMessage(const QString& text);

Q_SIGNALS:
    void addRequested(const structscope::ModelSpec& spec);
    void connectionTested(const structscope::ConnectionTestResult& result);

private:
    void kindChanged();
    void updateKeyState();
    void updateButtons();
    void showConnection(const ConnectionTestResult& result);

    QComboBox* m_kind;
    QLineEdit* m_model;
    QLineEdit* m_baseUrl;
    QLineEdit* m_keyEnv;
    QLineEdit* m_options;
    QLabel* m_keyState;
    QPushButton* m_test;
    QPushButton* m_add;
    QLabel* m_connection;
    ConnectionTest* m_connectionTest;
};

} // namespace structscope
