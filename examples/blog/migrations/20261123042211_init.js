// Migration 20261123042211_init, written by `pipe migrate create` from the changes of the definitions.
// `up` and `down` run in one transaction each. Edit the statements freely, or make either an async function
// of `{execute}`; `snapshot` is what the next `pipe migrate create` compares the definitions with.

export const database = "sqlite"

export const up = [
  "create table `tag` (`id` integer not null primary key autoincrement, `label` text not null);",
  "create unique index `tag_label_unique` on `tag` (`label`);",
  "create table `user` (`id` integer not null primary key autoincrement, `email` text not null, `name` text not null, `password` text null, `role` text check (`role` in ('admin', 'author', 'reader')) null default 'reader', `created_at` datetime not null default current_timestamp, `updated_at` datetime not null default current_timestamp);",
  "create unique index `user_email_unique` on `user` (`email`);",
  "create table `post` (`id` integer not null primary key autoincrement, `title` text not null, `slug` text null, `body` text null, `status` text check (`status` in ('draft', 'published')) not null default 'draft', `published_at` datetime null, `views` integer not null default 0, `rating` double null, `author_id` integer not null, `created_at` datetime not null default current_timestamp, `updated_at` datetime not null default current_timestamp, `deleted_at` datetime null, constraint `post_author_id_foreign` foreign key(`author_id`) references `user`(`id`) on delete cascade on update cascade);",
  "create unique index `post_slug_unique` on `post` (`slug`);",
  "create index `post_author_id_index` on `post` (`author_id`);",
  "create index `post_deleted_at_index` on `post` (`deleted_at`);",
  "create index `post_status_published_at_index` on `post` (`status`, `published_at`);",
  "create table `post_tags` (`post_id` integer not null, `tag_id` integer not null, constraint `post_tags_post_id_foreign` foreign key(`post_id`) references `post`(`id`) on delete cascade on update cascade, constraint `post_tags_tag_id_foreign` foreign key(`tag_id`) references `tag`(`id`) on delete cascade on update cascade, primary key (`post_id`, `tag_id`));",
  "create index `post_tags_post_id_index` on `post_tags` (`post_id`);",
  "create index `post_tags_tag_id_index` on `post_tags` (`tag_id`);",
  "create table `comment` (`id` integer not null primary key autoincrement, `body` text not null, `post_id` integer not null, `author_id` integer null, `created_at` datetime not null default current_timestamp, `updated_at` datetime not null default current_timestamp, constraint `comment_post_id_foreign` foreign key(`post_id`) references `post`(`id`) on delete cascade on update cascade, constraint `comment_author_id_foreign` foreign key(`author_id`) references `user`(`id`) on delete set null on update cascade);",
  "create index `comment_post_id_index` on `comment` (`post_id`);",
  "create index `comment_author_id_index` on `comment` (`author_id`);"
]

export const down = [
  "drop table if exists `tag`;",
  "drop table if exists `user`;",
  "drop table if exists `post`;",
  "drop table if exists `post_tags`;",
  "drop table if exists `comment`;"
]

export const snapshot = {
  "entities": [
    {
      "name": "comment",
      "fields": {
        "body": {
          "type": "text",
          "required": true
        }
      },
      "relations": {
        "post": {
          "kind": "many-to-one",
          "entity": "post",
          "required": true,
          "onDelete": "cascade"
        },
        "author": {
          "kind": "many-to-one",
          "entity": "user",
          "onDelete": "set null"
        }
      },
      "timestamps": true
    },
    {
      "name": "post",
      "fields": {
        "title": {
          "type": "string",
          "required": true,
          "length": 200
        },
        "slug": {
          "type": "string",
          "unique": true,
          "length": 220
        },
        "body": {
          "type": "text"
        },
        "status": {
          "type": "enum",
          "enum": [
            "draft",
            "published"
          ],
          "required": true,
          "default": "draft"
        },
        "publishedAt": {
          "type": "datetime"
        },
        "views": {
          "type": "integer",
          "required": true,
          "default": 0
        },
        "rating": {
          "type": "number"
        }
      },
      "relations": {
        "author": {
          "kind": "many-to-one",
          "entity": "user",
          "required": true,
          "onDelete": "cascade",
          "inverse": "posts"
        },
        "tags": {
          "kind": "many-to-many",
          "entity": "tag"
        },
        "comments": {
          "kind": "one-to-many",
          "entity": "comment",
          "inverse": "post"
        }
      },
      "indexes": [
        {
          "fields": [
            "status",
            "publishedAt"
          ]
        }
      ],
      "timestamps": true,
      "softDelete": true
    },
    {
      "name": "tag",
      "fields": {
        "label": {
          "type": "string",
          "required": true,
          "unique": true,
          "length": 50
        }
      }
    },
    {
      "name": "user",
      "fields": {
        "email": {
          "type": "email",
          "required": true,
          "unique": true
        },
        "name": {
          "type": "string",
          "required": true,
          "length": 100
        },
        "password": {
          "type": "password"
        },
        "role": {
          "type": "enum",
          "enum": [
            "admin",
            "author",
            "reader"
          ],
          "default": "reader"
        }
      },
      "relations": {
        "posts": {
          "kind": "one-to-many",
          "entity": "post",
          "inverse": "author"
        }
      },
      "timestamps": true
    }
  ]
}
