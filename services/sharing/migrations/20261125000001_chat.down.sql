DROP TABLE chat_participants;
DROP TABLE chat_messages;
DROP TABLE chat_threads;
